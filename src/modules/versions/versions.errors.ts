/** Wire codes of the version lifecycle's 409s. */
export enum VersionErrorCode {
  /** Publish of, or push to, an archived version. */
  VersionArchived = 'version_archived',
  /** Archive of the agent's live version. */
  VersionIsLive = 'version_is_live',
  /** Archive of a version that is an arm of the agent's traffic split. */
  VersionInTrafficSplit = 'version_in_traffic_split',
}
