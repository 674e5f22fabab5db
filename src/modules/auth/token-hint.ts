/** What a messaging caller holding the wrong credential needs to hear: how to get an access token. */
export const HOW_TO_GET_A_TOKEN =
  "exchange the agent's publishable key for an access token with POST /management/v1/auth/token " +
  '{"grant_type":"publishable_key","publishable_key":"pk_…"} and send it as Authorization: Bearer <access_token>';
