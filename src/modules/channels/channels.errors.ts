export enum ChannelsErrorCode {
  /** The organization already connected this number for this channel. */
  SenderExists = 'sender_exists',
}
