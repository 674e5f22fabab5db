/** How a call to a model or embeddings provider failed: the `kind` label of the provider-error metric. */
export type ProviderErrorKind = 'timeout' | 'unavailable' | 'rate_limited' | 'rejected' | 'other';

// The failures the runtime made from provider failures, by kind; weak, so errors are not kept.
const kinds = new WeakMap<object, ProviderErrorKind>();

/** Records `error`'s kind (the runtime's provider adapters call it) and returns the error. */
export function classifyProviderError<E extends object>(kind: ProviderErrorKind, error: E): E {
  kinds.set(error, kind);
  return error;
}

/** The kind of a provider failure, when `error` is one (anything else: undefined). */
export function providerErrorKind(error: unknown): ProviderErrorKind | undefined {
  return typeof error === 'object' && error !== null ? kinds.get(error) : undefined;
}
