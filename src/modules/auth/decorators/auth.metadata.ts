/** Metadata keys, kept apart from the decorators so guards can import them without a cycle. */
export const AUTH_CREDENTIALS = 'auth:credentials';
export const IS_PUBLIC = 'auth:public';
