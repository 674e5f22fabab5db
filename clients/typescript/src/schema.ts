/* Generated from openapi.json by `npm run client:generate` (openapi-typescript). Do not edit. */

export interface paths {
  '/management/v1/auth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Exchange a publishable key (or a login) for an access token
     * @description No credential: the body is the credential. `publishable_key` gives a client token for the messaging API (agent-scoped); `password` gives a login session for the management API (with `agent_id`, messaging too). JSON or form-encoded. Exchange again before `expires_in` runs out. Failures use the OAuth 2.0 body `{ error, error_description }`, not the envelope.
     */
    post: operations['Token_token'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness: the process is up
     * @description No credential. 200 while the process serves HTTP; checks nothing else.
     */
    get: operations['Health_live'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness: PostgreSQL and Redis are reachable
     * @description No credential. 503 `not_ready` naming the unreachable dependency in `details` (each check times out after 2 s), or `shutdown` from SIGTERM on while this instance drains (docs/operations.md).
     */
    get: operations['Health_ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the organization's projects
     * @description Newest first by default; page with `page[after]`/`page[before]` from `meta` (or follow `links`).
     */
    get: operations['Projects_list'];
    put?: never;
    /**
     * Create a project
     * @description A project groups agents; usage and threads can be read per project.
     */
    post: operations['Projects_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a project
     * @description Another organization's project is 404, as is a deleted one.
     */
    get: operations['Projects_get'];
    put?: never;
    post?: never;
    /**
     * Delete a project and its agents
     * @description It leaves listings at once, and the keys and tokens of its agents are refused at once; threads and usage history stay.
     */
    delete: operations['Projects_delete'];
    options?: never;
    head?: never;
    /**
     * Update a project
     * @description Renames it and/or sets `thread_retention_days`: threads whose last activity is older are deleted by the retention job, in batches, with their interactions, traces and channel messages; usage totals stay the same. `null` keeps threads forever (the default). Fields left out stay as they are.
     */
    patch: operations['Projects_update'];
    trace?: never;
  };
  '/management/v1/bundle-schema': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The JSON Schema (draft-07) every pushed bundle must match
     * @description Validate a bundle against it before a push (a push answers 422 naming each bad field). docs/bundle.md explains the fields.
     */
    get: operations['Bundles_schema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Templates a new version can start from
     * @description Pass a template `id` as `template` with `source: "template"` when creating a version.
     */
    get: operations['Bundles_listTemplates'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/templates/{templateId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A template with its bundle
     * @description The whole bundle, to read or to push after editing.
     */
    get: operations['Bundles_getTemplate'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the agent's versions
     * @description Newest first by default. Pushed revisions are items too (`is_revision: true`) unless `filters[exclude_revisions]=true`.
     */
    get: operations['Versions_list'];
    put?: never;
    /**
     * Create a draft version: empty, from a template, or a clone of another version
     * @description Its starting content is revision vN.0. Publish it to make it live; push to change its bundle.
     */
    post: operations['Versions_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a version
     * @description Its status, whether it is live, its current revision tag and digest.
     */
    get: operations['Versions_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update a version's label, tags and notes
     * @description `null` clears a field. The configuration changes only through push.
     */
    patch: operations['Versions_update'];
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/publish': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Make the version live with its current revision (ship, switch or roll back)
     * @description The previous live version stays published. 409 `version_archived` for an archived version. When the agent has `publish_requires_passing_evaluation`, a revision whose latest evaluation did not pass (or that was never evaluated) is 409 `evaluation_required`; `?force=true` publishes it anyway and writes a `version.publish_forced` audit record.
     */
    post: operations['Versions_publish'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/archive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Archive a version that is not live
     * @description 409 `version_is_live` for the live version: publish another one first. 409 `version_in_traffic_split` for an arm of the agent's traffic split: change or end the split first.
     */
    post: operations['Versions_archive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/push': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Upload a bundle and commit a new revision vN.R
     * @description An identical bundle commits nothing and returns the current revision. An invalid bundle is 422 with details[].field into the bundle; an archived version is 409 `version_archived`.
     */
    post: operations['Versions_push'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/pull': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the version's bundle
     * @description The current revision, or the revision tagged `version_tag`. Push it back after editing to commit a new revision.
     */
    get: operations['Versions_pull'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/traffic': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The agent's traffic split between versions
     * @description The arms in layout order with their shares; `splits` is empty when the agent has no split (the live version answers every thread).
     */
    get: operations['Traffic_get'];
    /**
     * Split new threads between published versions
     * @description Replaces the split. 2..10 distinct published versions of the agent, whole percents 1..100 summing to 100, the live version one of them (422 `validation_error` naming the field otherwise; a version_id that is not one of this agent's is 404). A new thread gets an arm by a stable hash of (agent, user_id), so an end user stays on one arm; an existing thread stays on its version while that version is not archived. A non-live arm answers with its current revision as of this call. See docs/releases.md. With `publish_requires_passing_evaluation` on the agent, a non-live arm whose revision has no passing evaluation is 409 `evaluation_required` (`?force=true` splits anyway, audited as `traffic.update_forced`).
     */
    put: operations['Traffic_put'];
    post?: never;
    /**
     * End the traffic split
     * @description New threads, and threads on other versions, answer with the live version again; the live version is unchanged. Without a split this is a 204 too.
     */
    delete: operations['Traffic_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the project's agents
     * @description `filters[name]` keeps agents whose name contains it (case-insensitive). Newest first by default.
     */
    get: operations['Agents_list'];
    put?: never;
    /**
     * Create an agent
     * @description The agent has no live version until one is published: create a version (e.g. from a template), then publish it.
     */
    post: operations['Agents_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an agent
     * @description `live_version_id` and `live_version_tag` say which version and revision answer messages; null until a publish.
     */
    get: operations['Agents_get'];
    put?: never;
    post?: never;
    /**
     * Delete an agent
     * @description Deletes its versions and keys (its tokens are refused at once); its threads and usage history stay.
     */
    delete: operations['Agents_delete'];
    options?: never;
    head?: never;
    /**
     * Rename an agent (or change its description)
     * @description A rename re-publishes the live revision with the new name as a new revision that becomes live; the live version stays the same.
     */
    patch: operations['Agents_update'];
    trace?: never;
  };
  '/management/v1/agents/{agentId}/tool-signing-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the agent's HTTP tool signing secret
     * @description Every call an HTTP tool of this agent makes carries `webhook-id`, `webhook-timestamp` and `webhook-signature` (Standard Webhooks); verify them with this secret to know the call came from this service (docs/http-tools.md).
     */
    get: operations['ToolSigning_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/publishable-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the agent's publishable keys
     * @description Active keys only, with their prefix; never the key itself.
     */
    get: operations['Keys_listPublishableKeys'];
    put?: never;
    /**
     * Create a publishable key
     * @description For client code (browser, app): exchange it at POST /management/v1/auth/token for an access token. The key is shown only in this response.
     */
    post: operations['Keys_createPublishableKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/publishable-keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a publishable key
     * @description No more exchanges, and the access tokens it issued are refused at once.
     */
    delete: operations['Keys_revokePublishableKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the agent's API keys
     * @description Active keys only, with their prefix; never the key itself.
     */
    get: operations['Keys_listApiKeys'];
    put?: never;
    /**
     * Create an agent API key
     * @description For your servers: send it as `x-agent-api-key` to the events webhook. The key is shown only in this response; no body.
     */
    post: operations['Keys_createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/api-keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an agent API key
     * @description The key is refused at once, on every instance.
     */
    delete: operations['Keys_revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/secrets/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Set an agent secret
     * @description Creates the secret or replaces its value. Header values of the agent's MCP servers and HTTP tools name it as `{{secret:NAME}}`; it is filled in when a call is made. Write-only: encrypted at rest, never shown again, never in pulls, traces or logs.
     */
    put: operations['AgentSecrets_put'];
    post?: never;
    /**
     * Delete an agent secret
     * @description Calls whose headers name it fail from now on (with a readable error) until it is set again or a push stops naming it.
     */
    delete: operations['AgentSecrets_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/secrets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the agent's secrets
     * @description Names and dates only; a value is never shown again.
     */
    get: operations['AgentSecrets_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an end-user message and get the reply
     * @description Without `thread_id` a new thread starts; to continue it, send the `thread_id` of the reply. The live version answers. For token-by-token output use POST /messaging/v1/messages/stream (same body). While the thread waits for or is held by an operator (docs/handoff.md) the message is recorded for them, no engine runs, and the answer is 202 with the control.
     */
    post: operations['Messaging_send'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/threads/{threadId}/rerun': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Answer the thread's last end-user message again
     * @description Runs the last end-user message of the thread again on the current live version and appends the new reply. The body is optional.
     */
    post: operations['Messaging_rerun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/welcome-message': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The live version's greeting
     * @description For opening a conversation UI before the first message: the welcome message and its suggested prompts.
     */
    get: operations['Messaging_welcome'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/welcome-messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The live version's greeting (earlier plural path)
     * @description Same as GET /messaging/v1/welcome-message.
     */
    get: operations['Messaging_welcomePlural'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/followup-suggestions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Suggested next prompts
     * @description From a thread of this agent (`thread_id`), from a text you give (e.g. what the user is looking at), or both.
     */
    post: operations['Messaging_followupSuggestions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/mcp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Talk to the agent over the Model Context Protocol
     * @description A stateless MCP endpoint (Streamable HTTP, JSON responses) for the agent behind the messaging token: point an MCP client (an IDE, another agent, a workflow) at it with `Authorization: Bearer <token>`. One tool, `send_message` `{text, thread_id?, user_id?}`: the reply text, with `structuredContent` `{thread_id, interaction_id, message}` as `POST /messaging/v1/messages` answers. Turns count as sends: usage, traces, rate limits. GET (a server event stream) is not offered: 405.
     */
    post: operations['McpServer_post'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/messages/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an end-user message and stream the reply as Server-Sent Events (resumable with Last-Event-ID)
     * @description Same body as POST /messaging/v1/messages. With `Last-Event-ID: <interaction_id>:<seq>` the request resumes that stream instead (the body is ignored): every event after that id, then the live tail while the turn runs; it never starts a new turn. Replay buffers are kept at least 10 minutes. Errors before the first event are JSON error responses.
     */
    post: operations['Stream_stream'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Queue an event that triggers the agent asynchronously
     * @description Answers 202 once the event is stored durably; the agent runs it in the background. Poll GET /messaging/v1/events/{eventId} for its status; the turn lands in the thread named by your `thread_id` (threads list `external_id`).
     */
    post: operations['Events_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/events/{eventId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An event's processing status
     * @description queued → processing → completed or failed; `thread_id` once processed. Events of this key's agent only (others are 404).
     */
    get: operations['Events_status'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/senders': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the organization's sender numbers
     * @description Newest first by default; sortable by phone_number.
     */
    get: operations['Senders_list'];
    put?: never;
    /**
     * Connect a sender number for a channel
     * @description A WhatsApp or SMS number of your provider account; pass its id as `sender_id` when starting a channel conversation.
     */
    post: operations['Senders_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/senders/{senderId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a sender number
     * @description Conversations it started keep their number.
     */
    delete: operations['Senders_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/channels/{channel}/threads': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a channel conversation (WhatsApp or SMS)
     * @description Creates a thread on the channel and sends the live version's welcome message to `phone_number` from the given sender (or the platform default sender). Replies from the phone continue the thread. `from` is present only when `sender_id` was given.
     */
    post: operations['ChannelThreads_start'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/channels/{channel}/threads/{threadId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A channel conversation started by this agent
     * @description With the current delivery status of its opening message (queued, sent, delivered, undelivered).
     */
    get: operations['ChannelThreads_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/channels/{channel}/inbound': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider webhook: a message from the phone (Twilio-compatible, form-encoded, signed)
     * @description Recorded once per MessageSid, then answered by the agent through the events pipeline; the reply is delivered to the phone through the Messages API.
     */
    post: operations['ChannelWebhooks_receive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/channels/{channel}/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Provider webhook: delivery status of an outbound message
     * @description Updates the status of one of our messages (sent, delivered, undelivered, failed); unknown MessageSids are ignored.
     */
    post: operations['ChannelWebhooks_status'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/threads': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the organization's threads, newest first
     * @description Repeatable filters combine with OR within a field and AND across fields. `runtime_version` other than `1` lists runtime-v2 threads and requires `agent_id` or `user_id`.
     */
    get: operations['Threads_list'];
    put?: never;
    post?: never;
    /**
     * Delete all of an end user's threads (erasure)
     * @description Deletes now every thread of `user_id` in the organization, with its messages, traces, channel messages, events and stream replay buffers, in batches; usage totals stay the same. Answers the counts. A later send naming one of those threads is 404.
     */
    delete: operations['Threads_eraseUser'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/threads/{threadId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a thread
     * @description A thread of the other runtime generation than `runtime_version` selects is 404.
     */
    get: operations['Threads_get'];
    put?: never;
    post?: never;
    /**
     * Delete a thread (erasure)
     * @description Deletes the thread now, whatever its runtime, with its messages, traces, channel messages, events and stream replay buffers; usage totals stay the same. A later send naming it is 404.
     */
    delete: operations['Threads_erase'];
    options?: never;
    head?: never;
    /**
     * Rename a thread
     * @description Sets its title (shown in lists); returns the full updated thread.
     */
    patch: operations['Threads_rename'];
    trace?: never;
  };
  '/management/v1/threads/{threadId}/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A thread's transcript, oldest first
     * @description Each interaction yields the end-user message (when it had text or an image) and the agent reply, in turn order.
     */
    get: operations['Threads_messages'];
    put?: never;
    /**
     * Write to the end user
     * @description The assignee only (others: 409). Delivered on every surface: WebSocket sessions, the thread event stream, SMS/WhatsApp, webhooks, the transcript.
     */
    post: operations['Operators_message'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/threads/{threadId}/trace': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The reasoning trace of every interaction in a thread, oldest first
     * @description Each trace carries `runtime` (`v1` or `v2`), which selects its shape.
     */
    get: operations['Traces_ofThread'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/interactions/{interactionId}/trace': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The reasoning trace of one interaction
     * @description `thread_id` is required for runtime-v2 interactions and omitted for runtime v1.
     */
    get: operations['Traces_ofInteraction'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An agent's token usage
     * @description Interactions created in [created_from, created_to], both optional and inclusive. `group_by=version_tag` adds `by_version`: the sums per revision tag that answered (the arms of a traffic split).
     */
    get: operations['Usage_ofAgent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A project's token usage across all its agents, deleted agents included
     * @description Interactions created in [created_from, created_to], both optional and inclusive.
     */
    get: operations['Usage_ofProject'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/knowledge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the documents of the version's knowledge
     * @description The documents of the version's current revision, in bundle order, without their text.
     */
    get: operations['Knowledge_list'];
    put?: never;
    /**
     * Upload files into the version's knowledge: a new revision, like a push
     * @description Markdown, HTML and plain text files (UTF-8), split into documents by h1–h3 headings (docs/knowledge.md). A file uploaded again replaces the documents its earlier upload made. Any unusable file is 422 with details[].field `files["<name>"]` and nothing changes; an archived version is 409 `version_archived`.
     */
    post: operations['Knowledge_upload'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/knowledge/search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Try a question: the passages the version would answer it from
     * @description Runs the grounded engine's retrieval on the version's current revision (as a turn would, embeddings included) and says whether it would answer or decline. No turn is recorded and no model is called.
     */
    post: operations['Knowledge_search'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/knowledge/{documentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove one document from the version's knowledge
     * @description Commits a new revision without it, like a push. 404 when the current revision has no such document.
     */
    delete: operations['Knowledge_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the project's webhook endpoints
     * @description Newest first by default. Secrets are never listed.
     */
    get: operations['Webhooks_list'];
    put?: never;
    /**
     * Subscribe an endpoint to events
     * @description Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The signing secret is in this answer only. Loopback, private, link-local and metadata addresses are refused. A project and an organization may have a bounded number of endpoints (409 `webhook_limit_reached` beyond).
     */
    post: operations['Webhooks_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}/webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook endpoint
     * @description Its settings and state; the secret is never shown again.
     */
    get: operations['Webhooks_get'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description Its pending deliveries are dropped with it.
     */
    delete: operations['Webhooks_delete'];
    options?: never;
    head?: never;
    /**
     * Change a webhook endpoint
     * @description Any of url, events, description, enabled. `enabled: true` re-enables a disabled endpoint.
     */
    patch: operations['Webhooks_update'];
    trace?: never;
  };
  '/management/v1/projects/{projectId}/webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret
     * @description Returns the new secret (shown only here). The previous secret keeps signing beside it for `overlap_seconds` (default WEBHOOKS_SECRET_OVERLAP_SECONDS): `webhook-signature` then carries both signatures.
     */
    post: operations['Webhooks_rotateSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}/webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A webhook endpoint's delivery log
     * @description Newest first: each message with its attempts, status codes, latencies and the next retry.
     */
    get: operations['Webhooks_listDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivery again
     * @description Queues an attempt now, with the same `webhook-id` (receivers deduplicate on it), whatever the delivery’s state.
     */
    post: operations['Webhooks_redeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/audit-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the organization's audit records
     * @description Every management write, newest first: who (credential kind and id, user id of a login session), what (action, resource, before/after summaries without secrets), when and the request id. Filter by resource, actor, action and time range; page with `page[after]`/`page[before]` from `meta`. Records are append-only.
     */
    get: operations['Audit_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/audit-events/{auditEventId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an audit record
     * @description Another organization's record is 404.
     */
    get: operations['Audit_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/threads/{threadId}/handoff': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ask for a human
     * @description Hands the thread to the organization's operators: it waits (`pending`) until one accepts. While it waits or an operator holds it, sends are recorded for the operator and answered 202; operator messages arrive on the WebSocket session, the thread's event stream and channels. Asking again changes nothing. Needs `handoff.enabled` in the live version (409 `handoff_disabled`).
     */
    post: operations['Handoff_request'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/threads/{threadId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The thread's operator messages and control changes (Server-Sent Events, resumable)
     * @description For clients without a WebSocket session: `control` events (a handoff was asked for, accepted, released, timed out; the first event is the current state, `change: "current"`) and `message` events (operator messages). Resume with `Last-Event-ID`: every event after it, then live. The stream stays open; a `: ping` comment keeps it alive.
     */
    get: operations['Handoff_events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/threads/{threadId}/takeover': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Take a thread over
     * @description Straight to `human` with the caller as assignee, from `agent` or `pending`. The agent stops answering at once.
     */
    post: operations['Operators_takeover'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/threads/{threadId}/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept a waiting thread
     * @description `pending` → `human`, the caller as assignee. One operator wins; the others get 409.
     */
    post: operations['Operators_accept'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/threads/{threadId}/release': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Hand the thread back to the agent
     * @description The assignee only (others: 409). The agent answers the next message, with the operator's messages in its history.
     */
    post: operations['Operators_release'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/inbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Threads waiting for or held by an operator, oldest request first
     * @description `control` narrows to `pending` or `human`; `assignee=me` to the calling operator's threads (login sessions only).
     */
    get: operations['Inbox_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/inbox/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Inbox changes as Server-Sent Events (resumable)
     * @description `control` events (requested, accepted, takeover, released, timed_out) and `message` events (end-user and operator messages while a thread is not under agent control) of every thread of the organization. Resume with `Last-Event-ID`.
     */
    get: operations['Inbox_stream'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/test-cases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the agent's test cases
     * @description Oldest first by default.
     */
    get: operations['TestCases_list'];
    put?: never;
    /**
     * Create a test case
     * @description A conversation of 1..20 end-user turns, each with what its reply must do: `contains` / `not_contains` (case-insensitive phrases), `cites` (knowledge document ids), `cards` (record ids), `declines`, `tools`, `handoff`. Evaluation runs answer every case of the agent. See docs/evaluations.md.
     */
    post: operations['TestCases_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/test-cases/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import test cases
     * @description Creates every case of an export (`{test_cases: [{name, turns}]}`, 1..100 cases) in one transaction: all or none.
     */
    post: operations['TestCases_import'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/test-cases/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export test cases
     * @description Every case of the agent, oldest first, in the shape import takes.
     */
    get: operations['TestCases_export'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/test-cases/from-thread': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Save a thread as a test case
     * @description The thread's end-user messages become the turns (up to 20; image-only messages are skipped); each turn expects what its recorded reply did: the documents it cited, the records it showed, the tools it ran and whether it declined. 404 for a thread that is not this agent's.
     */
    post: operations['TestCases_fromThread'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/test-cases/{testCaseId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a test case
     * @description The case with its turns and expectations.
     */
    get: operations['TestCases_get'];
    put?: never;
    post?: never;
    /**
     * Delete a test case
     * @description Earlier evaluation results keep its outcome.
     */
    delete: operations['TestCases_delete'];
    options?: never;
    head?: never;
    /**
     * Change a test case
     * @description `name` renames it; `turns` replaces every turn.
     */
    patch: operations['TestCases_update'];
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/evaluations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a version's evaluation runs
     * @description Newest first by default; items carry no per-case results.
     */
    get: operations['Evaluations_list'];
    put?: never;
    /**
     * Evaluate a version's current revision against the agent's test cases
     * @description Queues a run (202 `{id, status}`); poll the evaluation until `status` is `completed` (or `failed`). Each case runs in a throwaway conversation that never appears in thread lists, usage, analytics or webhooks. The result compares itself with the live version's latest run, regressions first. A passing run lets the revision through the publish gate.
     */
    post: operations['Evaluations_start'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/versions/{versionId}/evaluations/{evaluationId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an evaluation run with its results
     * @description Per case and per turn: the reply and the reasons each check failed; `compared_to` lists the regressions.
     */
    get: operations['Evaluations_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/messaging/v1/messages/{messageId}/feedback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rate an agent message (thumbs up or down)
     * @description The end user's rating of a reply (`message.id` of a send), with an optional comment. Rating again replaces it: the latest rating stands. Endpoints subscribed to `message.feedback` receive it. Also a WebSocket `feedback` frame.
     */
    post: operations['FeedbackMessaging_rate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/feedback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List end users' ratings of the agent's messages
     * @description Newest first; one item per rated message (its latest rating). Filters: `rating`, `version_tag`, `thread_id`, `user_id`.
     */
    get: operations['FeedbackManagement_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/management/v1/agents/{agentId}/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An agent's outcomes: containment, handoff and decline rates, feedback, latency, tokens
     * @description Per revision tag, traffic-split arm (version) or UTC day over the whole UTC days of [created_from, created_to]: threads (by their first turn) and their outcome — handed off, declined (the last agent reply declined) or contained — messages, feedback up/down, reply latency p50/p95 and tokens. From daily roll-ups kept as turns are written; evaluation runs never count.
     */
    get: operations['Analytics_report'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'turn.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * turn.completed
     * @description A turn was recorded, on any surface (JSON, SSE, WebSocket, events webhook, channels, rerun). Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_turn_completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'event.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * event.completed
     * @description An events-webhook event (or a channel message handed over as one) completed. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_event_completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'event.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * event.failed
     * @description Such an event failed for good. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_event_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'thread.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * thread.created
     * @description A thread was created (by its first turn, or a channel conversation started). Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_thread_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'version.published': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * version.published
     * @description A version went live: a publish, or an agent rename that re-published the live revision. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_version_published'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'channel.message.status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * channel.message.status
     * @description An outbound WhatsApp/SMS message changed status. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_channel_message_status'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'thread.handoff_requested': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * thread.handoff_requested
     * @description A thread waits for an operator: the end user, a rule, a decline or the agent asked for a human. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_thread_handoff_requested'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'thread.handoff_accepted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * thread.handoff_accepted
     * @description An operator holds the thread: accepted a request, or took the thread over. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_thread_handoff_accepted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'thread.handoff_released': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * thread.handoff_released
     * @description The agent holds the thread again: the operator released it, or the request timed out. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_thread_handoff_released'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'thread.message_created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * thread.message_created
     * @description A message was written while the thread was not under agent control: the end user's or an operator's. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_thread_message_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.feedback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * message.feedback
     * @description An end user rated an agent message (thumbs up or down, maybe with a comment); a new rating replaces the last. Signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature); see docs/webhooks.md.
     */
    post: operations['webhook_message_feedback'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    TokenRequestDto: {
      /**
       * @description `publishable_key`: a client token for messaging; `password`: a login session (management, and messaging with agent_id)
       * @example publishable_key
       * @enum {string}
       */
      grant_type: 'publishable_key' | 'password';
      /**
       * @description With grant_type=publishable_key
       * @example pk_Zm9vYmFy…
       */
      publishable_key?: string;
      /**
       * @description With grant_type=password: the user email
       * @example owner@example.com
       */
      username?: string;
      /** @description With grant_type=password: the user password */
      password?: string;
      /** @description With grant_type=password: scope the session to this agent so it serves messaging too */
      agent_id?: string;
    };
    TokenResponseDto: {
      /**
       * @description Send as `Authorization: Bearer <access_token>`
       * @example eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI2NzQwYTFiMiJ9.c2lnbmF0dXJl
       */
      access_token: string;
      /**
       * @description Always Bearer
       * @enum {string}
       */
      token_type: 'Bearer';
      /** @description Seconds until the token expires; exchange again after that */
      expires_in: number;
      /** @description The agent the token acts as; null for an unscoped login session */
      agent_id: string | null;
      /**
       * @description The organization the token belongs to
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
    };
    OAuthErrorDto: {
      /**
       * @description OAuth 2.0 error code
       * @example invalid_grant
       * @enum {string}
       */
      error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type' | 'rate_limited' | 'server_error';
      /**
       * @description What failed, for humans and logs
       * @example invalid_publishable_key
       */
      error_description: string;
    };
    ErrorDetailDto: {
      /**
       * @description Wire path of the field (`agent_variables.static`, `page[size]`, `tags[2]`)
       * @example name
       */
      field: string;
      /**
       * @description What is wrong with it
       * @example name must be longer than or equal to 2 characters
       */
      message: string;
    };
    ErrorBodyDto: {
      /**
       * @description Stable code to branch on; keep a default branch, the set may grow
       * @example not_found
       */
      code: string;
      /**
       * @description Human-readable; do not parse it
       * @example Project not found
       */
      message: string;
      /**
       * @description Equals the x-request-id response header
       * @example a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d
       */
      request_id: string;
      /** @description Per-field problems (validation errors) */
      details?: components['schemas']['ErrorDetailDto'][];
    };
    ErrorEnvelopeDto: {
      /** @description The error */
      error: components['schemas']['ErrorBodyDto'];
    };
    ReadinessDto: {
      /**
       * @description Always ok when the service is ready
       * @example ok
       */
      status: string;
      /**
       * @description Each dependency checked
       * @example {
       *       "database": "ok",
       *       "redis": "ok"
       *     }
       */
      checks: Record<string, never>;
    };
    CreateProjectDto: {
      /**
       * @description Display name, 2..100 characters
       * @example Storefront
       */
      name: string;
    };
    ProjectResponseDto: {
      /**
       * @description Project id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description Display name
       * @example Storefront
       */
      name: string;
      /**
       * @description Threads idle longer than this many days are deleted; null keeps them forever
       * @example null
       */
      thread_retention_days: number | null;
      /**
       * Format: date-time
       * @description When the project was created
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the project last changed
       */
      updated_at: string;
    };
    PageMetaDto: {
      /** @description More items exist in the direction of travel */
      has_more: boolean;
      /** @description Cursor of the last item; pass as page[after] */
      after_cursor: string | null;
      /** @description Cursor of the first item; pass as page[before] */
      before_cursor: string | null;
    };
    PageLinksDto: {
      /** @description Path and query of the next page, repeating the filters */
      next: string | null;
      /** @description Path and query of the previous page, repeating the filters */
      prev: string | null;
    };
    UpdateProjectDto: {
      /**
       * @description New display name, 2..100 characters
       * @example Storefront EU
       */
      name?: string;
      /**
       * Format: int32
       * @description Delete the project's threads once their last activity is older than this many days (1..3650); null keeps them forever. Usage totals are kept.
       * @example 30
       */
      thread_retention_days?: number | null;
    };
    TemplateResponseDto: {
      /**
       * @description Pass as `template` when creating a version with source "template"
       * @example shopping-assistant
       */
      id: string;
      /**
       * @description Display name
       * @example Shopping assistant
       */
      name: string;
      /** @description What an agent built from it does */
      description: string;
      /**
       * @description The runtime the template is written for
       * @enum {string}
       */
      runtime: 'v1' | 'v2';
    };
    TemplateListResponseDto: {
      /** @description Every template */
      results: components['schemas']['TemplateResponseDto'][];
    };
    TemplateDetailResponseDto: {
      /**
       * @description Pass as `template` when creating a version with source "template"
       * @example shopping-assistant
       */
      id: string;
      /**
       * @description Display name
       * @example Shopping assistant
       */
      name: string;
      /** @description What an agent built from it does */
      description: string;
      /**
       * @description The runtime the template is written for
       * @enum {string}
       */
      runtime: 'v1' | 'v2';
      /** @description The bundle (see GET /management/v1/bundle-schema) */
      bundle: {
        [key: string]: unknown;
      };
    };
    CreateVersionDto: {
      /**
       * @description Short name for people
       * @example Holiday campaign
       */
      label?: string | null;
      /**
       * @description Each 1..50 characters; duplicates are dropped
       * @example [
       *       "holiday",
       *       "experiment-b"
       *     ]
       */
      tags?: string[];
      /**
       * @description Free-form notes
       * @example Try the new greeting
       */
      notes?: string | null;
      /**
       * @description empty: a minimal bundle; template: a template bundle (`template`); clone: the current bundle of `from_version_id`
       * @enum {string}
       */
      source: 'empty' | 'template' | 'clone';
      /**
       * @description Required with source "template": an id from GET /management/v1/templates
       * @example shopping-assistant
       */
      template?: string;
      /** @description Required with source "clone": a version of the same agent */
      from_version_id?: string;
    };
    VersionResponseDto: {
      /**
       * @description The version id, or the revision id for a revision item
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description Version number per agent, from 1
       * @example 3
       */
      number: number;
      /**
       * @description Base version: its current revision's tag. Revision: its own tag
       * @example v3.2
       */
      version_tag: string;
      /**
       * @description Lifecycle state
       * @enum {string}
       */
      status: 'draft' | 'published' | 'archived';
      /** @description Base version: it is the agent's live version. Revision: it is the live revision */
      is_live: boolean;
      /** @description true for a pushed revision item of a listing */
      is_revision: boolean;
      /** @description For a revision item: the id of its version; null for a base version */
      base_version_id: string | null;
      /** @description Short name for people */
      label: string | null;
      /** @description Free-form tags */
      tags: string[];
      /** @description Free-form notes */
      notes: string | null;
      /**
       * @description Digest of the bundle
       * @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
       */
      digest: string;
      /** @description A revision's push message; null for a base version */
      message: string | null;
      /**
       * Format: date-time
       * @description When the version (or revision) was created
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When it last changed
       */
      updated_at: string;
    };
    UpdateVersionDto: {
      /**
       * @description Short name for people
       * @example Holiday campaign
       */
      label?: string | null;
      /**
       * @description Each 1..50 characters; duplicates are dropped
       * @example [
       *       "holiday",
       *       "experiment-b"
       *     ]
       */
      tags?: string[];
      /**
       * @description Free-form notes
       * @example Try the new greeting
       */
      notes?: string | null;
    };
    PushBundleDto: {
      /** @description The configuration bundle; must match GET /management/v1/bundle-schema */
      bundle: {
        [key: string]: unknown;
      };
      /**
       * @description What changed, like a commit message
       * @example Add winter jackets to the catalog
       */
      message?: string;
    };
    PushResponseDto: {
      /**
       * @description The version pushed to
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The committed revision (the current one when the bundle was unchanged)
       * @example 6740a1b2c3d4e5f601234567
       */
      revision_id: string;
      /**
       * @description Tag of the committed revision
       * @example v3.2
       */
      version_tag: string;
      /**
       * @description Digest of the bundle
       * @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
       */
      digest: string;
      /**
       * Format: date-time
       * @description When the revision was committed
       */
      created_at: string;
    };
    BundleResponseDto: {
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The version
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision returned
       * @example v3.2
       */
      version_tag: string;
      /** @description The configuration bundle (GET /management/v1/bundle-schema) */
      bundle: {
        [key: string]: unknown;
      };
      /**
       * Format: date-time
       * @description Cache this payload until then
       */
      expires_at: string;
      /**
       * @description Always bundle
       * @enum {string}
       */
      return_type: 'bundle';
    };
    TrafficArmDto: {
      /**
       * @description The version this arm answers with
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision tag new threads of this arm are answered with (the live arm: the live revision)
       * @example v2.1
       */
      version_tag: string;
      /**
       * @description Share of new threads, in whole percent
       * @example 10
       */
      percent: number;
      /** @description Whether this arm is the agent's live version */
      is_live: boolean;
    };
    TrafficResponseDto: {
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The agent's live version
       * @example 6740a1b2c3d4e5f601234567
       */
      live_version_id: string | null;
      /** @description The arms in layout order; empty: no split */
      splits: components['schemas']['TrafficArmDto'][];
      /**
       * Format: date-time
       * @description When the split was set; null without one
       */
      updated_at: string | null;
    };
    TrafficArmInputDto: {
      /**
       * @description A published version of this agent (the `id` of a base version item)
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * Format: int32
       * @description Share of new threads, in whole percent
       * @example 90
       */
      percent: number;
    };
    UpdateTrafficDto: {
      /** @description The arms, in the order their shares are laid out: 2..10 distinct published versions whose percents sum to 100; the agent's live version must be one of them */
      splits: components['schemas']['TrafficArmInputDto'][];
    };
    CreateAgentDto: {
      /**
       * @description Display name
       * @example Store assistant
       */
      name: string;
      /**
       * @description Free text for your team
       * @example Answers shoppers on the web store
       */
      description?: string | null;
      /**
       * @description v1: decisioning engine; v2: grounded engine
       * @default v1
       * @enum {string}
       */
      runtime?: 'v1' | 'v2';
    };
    AgentResponseDto: {
      /**
       * @description Agent id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The project the agent belongs to
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /**
       * @description Display name
       * @example Store assistant
       */
      name: string;
      /** @description Free text for your team */
      description: string | null;
      /**
       * @description Engine generation: v1 decisioning, v2 grounded
       * @enum {string}
       */
      runtime: 'v1' | 'v2';
      /** @description The live version; null until a publish */
      live_version_id: string | null;
      /**
       * @description The live revision tag; null until a publish
       * @example v3.2
       */
      live_version_tag: string | null;
      /** @description Publishing needs a passing evaluation of the revision (docs/evaluations.md) */
      publish_requires_passing_evaluation: boolean;
      /**
       * Format: date-time
       * @description When the agent was created
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the agent last changed
       */
      updated_at: string;
    };
    UpdateAgentDto: {
      /** @description New name */
      name?: string;
      /** @description null clears it */
      description?: string | null;
      /** @description true: a publish or traffic split that would serve a revision without a passing evaluation answers 409 `evaluation_required` */
      publish_requires_passing_evaluation?: boolean;
    };
    ToolSigningSecretDto: {
      /**
       * @description The agent
       * @example 65f1c0ffee0000000000a001
       */
      agent_id: string;
      /**
       * @description Verifies the agent's HTTP tool calls: `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under the base64 key after `whsec_` (Standard Webhooks; any of its libraries verifies it). Derived from the server key: the same on every instance and after restarts
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secret: string;
      /**
       * @description The signature scheme (https://www.standardwebhooks.com)
       * @enum {string}
       */
      scheme: 'standard-webhooks-v1';
    };
    CreatePublishableKeyDto: {
      /**
       * @description Web origins (scheme://host[:port]) allowed to exchange the key and call messaging; empty = any
       * @example [
       *       "https://shop.example.com"
       *     ]
       */
      allowed_origins?: string[];
      /**
       * @description CIDR ranges (IPv4 or IPv6) allowed to exchange the key and to use the tokens minted from it (checked on every request); a bare address means that address only; empty = any
       * @example [
       *       "203.0.113.0/24",
       *       "2001:db8::/32"
       *     ]
       */
      allowed_ip_ranges?: string[];
    };
    CreatedPublishableKeyResponseDto: {
      /**
       * @description Key id (for revocation)
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The first characters of the key, to tell keys apart
       * @example pk_Zm9vYmFy
       */
      key_prefix: string;
      /** @description Web origins allowed to use the key; empty = any */
      allowed_origins: string[];
      /** @description CIDR ranges allowed to exchange the key and to use its tokens; empty = any */
      allowed_ip_ranges: string[];
      /**
       * Format: date-time
       * @description When the key was created
       */
      created_at: string;
      /**
       * @description The key itself: shown only in this response
       * @example pk_Zm9vYmFyYmF6…
       */
      publishable_key: string;
    };
    PublishableKeyResponseDto: {
      /**
       * @description Key id (for revocation)
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The first characters of the key, to tell keys apart
       * @example pk_Zm9vYmFy
       */
      key_prefix: string;
      /** @description Web origins allowed to use the key; empty = any */
      allowed_origins: string[];
      /** @description CIDR ranges allowed to exchange the key and to use its tokens; empty = any */
      allowed_ip_ranges: string[];
      /**
       * Format: date-time
       * @description When the key was created
       */
      created_at: string;
    };
    CreatedAgentApiKeyResponseDto: {
      /**
       * @description Key id (for revocation)
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The first characters of the key, to tell keys apart
       * @example agk_Zm9vYmFy
       */
      key_prefix: string;
      /**
       * Format: date-time
       * @description When the key was created
       */
      created_at: string;
      /**
       * @description The key itself: shown only in this response
       * @example agk_Zm9vYmFyYmF6…
       */
      api_key: string;
    };
    AgentApiKeyResponseDto: {
      /**
       * @description Key id (for revocation)
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The first characters of the key, to tell keys apart
       * @example agk_Zm9vYmFy
       */
      key_prefix: string;
      /**
       * Format: date-time
       * @description When the key was created
       */
      created_at: string;
    };
    PutAgentSecretDto: {
      /**
       * @description The value, sent in header values that name the secret; never shown again (no control characters: it goes into a header)
       * @example sk_live_…
       */
      value: string;
    };
    AgentSecretResponseDto: {
      /**
       * @description Secret name
       * @example CRM_TOKEN
       */
      name: string;
      /**
       * Format: date-time
       * @description When the secret was first set
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When its value was last set
       */
      updated_at: string;
    };
    AgentVariablesDto: {
      /** @description Values fixed for the conversation (e.g. store, locale) */
      static?: {
        [key: string]: unknown;
      };
      /** @description Values of this message (e.g. cart, page) */
      dynamic?: {
        [key: string]: unknown;
      };
    };
    SendMessageDto: {
      /**
       * @description The end-user message; required unless image_url is given
       * @example Do you have running shoes under $100?
       */
      text?: string;
      /**
       * @description Your id of the end user
       * @example user-42
       */
      user_id: string;
      /** @description Append to this thread; omit to start a new one */
      thread_id?: string;
      /**
       * @description Signed image URL for vision input
       * @example https://cdn.example.com/u/42/photo.jpg?sig=abc
       */
      image_url?: string;
      /** @description Values for the agent's context variables */
      agent_variables?: components['schemas']['AgentVariablesDto'];
      /**
       * @description Build pin for agents on the v2 engine (e.g. 2.1); ignored for v1 agents
       * @example 2.1
       */
      runtime_version?: string;
      /**
       * @description Include the reasoning trace as message.trace_info
       * @default false
       */
      include_trace?: boolean;
    };
    V1TraceInputDto: {
      /** @description The end-user message as the engine read it (empty for an image-only turn) */
      message: string;
    };
    V1GuardrailsDto: {
      /** @description False when a guardrail pattern matched and the turn was blocked */
      passed: boolean;
      /** @description Which guardrail matched, or why none did */
      reason: string;
    };
    V1UnderstandingDto: {
      /** @description Recognised intents, best first (empty when none or blocked) */
      intents: string[];
      /** @description The guardrail check, run before anything else */
      guardrails: components['schemas']['V1GuardrailsDto'];
    };
    V1DecisionTriggerDto: {
      /**
       * @description `always` (tool on every unblocked message), `intent` (tool for listed intents), `parameter` (rule)
       * @enum {string}
       */
      type: 'always' | 'intent' | 'parameter';
      /** @description Why the step ran or was skipped, in words */
      reasons: string[];
      /** @description The intent that triggered an intent-scoped tool; empty otherwise */
      matched_objective: string;
    };
    V1DecisionRuleDto: {
      /** @description The condition method, e.g. `less_than` or `exists`; empty for tool calls */
      type: string;
      /**
       * @description The rule's action; empty for tool calls
       * @enum {string}
       */
      action: 'block' | 'ask' | 'respond' | '';
      /** @description The evaluated condition, e.g. `budget (100) >= 80 → true`; empty for tool calls */
      reason: string;
      /** @description The rule code; empty for tool calls */
      code: string;
    };
    V1HttpCallDto: {
      /**
       * @description The tool's method
       * @example GET
       * @enum {string}
       */
      method: 'GET' | 'POST' | 'PUT' | 'PATCH';
      /**
       * @description The URL template, placeholders unfilled
       * @example https://orders.example.com/orders/{order_id}
       */
      url: string;
      /**
       * @description The endpoint's status; null when none came or the tool was skipped
       * @example 200
       */
      status: number | null;
      /** @description Milliseconds from sending to the last byte read; null when skipped */
      latency_ms: number | null;
      /**
       * @description Codes of the parameters the call carried (their values are in the facets)
       * @example [
       *       "order_id"
       *     ]
       */
      params_sent: string[];
      /**
       * @description Why the call failed (the reply is then the fallback); empty on success
       * @enum {string}
       */
      failure_reason:
        | ''
        | 'timeout'
        | 'http_status'
        | 'invalid_json'
        | 'missing_field'
        | 'response_too_large'
        | 'blocked_address'
        | 'invalid_url'
        | 'dns_failure'
        | 'connection_failed'
        | 'unavailable';
      /** @description A human explanation of the failure; empty on success */
      detail: string;
    };
    V1DecisionDto: {
      /**
       * @description A tool call or a rule evaluation
       * @enum {string}
       */
      type: 'tool_call' | 'rule';
      /** @description Tool code (tool calls); empty for rules */
      tool: string;
      /** @description Agent mode: the MCP server of an MCP tool, else null; compose mode: always empty */
      parent_tool: string | null;
      /**
       * @description `t<n>` for the n-th tool, `r<n>` for the n-th rule; agent mode: the step id `s<n>`
       * @example t1
       */
      track_id: string;
      /**
       * @description Tool calls: completed, no_results or skipped (HTTP tools: failed when the call did; agent mode: completed, failed or refused); rules: triggered or not_triggered
       * @enum {string}
       */
      status: 'completed' | 'no_results' | 'skipped' | 'failed' | 'refused' | 'triggered' | 'not_triggered';
      /**
       * @description Whether the step ran (tools) or fired (rules)
       * @enum {string}
       */
      check_status: 'passed' | 'failed' | 'not_applicable';
      /** @description What made the step run */
      trigger: components['schemas']['V1DecisionTriggerDto'];
      /**
       * @description Same as `trigger.type`
       * @enum {string}
       */
      trigger_type: 'always' | 'intent' | 'parameter';
      /** @description The rule evaluated (empty strings for tool calls) */
      rule: components['schemas']['V1DecisionRuleDto'];
      /** @description Tool calls: a summary of the results (agent mode: the arguments' JSON); rules: the rule's message when it fired */
      text: string;
      /** @description Why the step did not run or fire; empty when it did */
      fail_reason: string;
      /** @description How the step was computed: the search and its filters, or the evaluated condition */
      computation: string;
      /** @description The output: `<tool>.results` for tools, the parameter a rule tests */
      output_param: string;
      /** @description The top result's title (tools) or the parameter's title (rules) */
      output_title: string;
      /** @description True when the tool found results or the rule fired */
      qualified: boolean;
      /** @description Tool calls: `results`, `empty` or `skipped` (HTTP tools: `response`, `fallback` or `skipped`); rules: the action taken, or `none` */
      matched_branch: string;
      /** @description HTTP tools only: the call as made (docs/http-tools.md) */
      http?: components['schemas']['V1HttpCallDto'];
    };
    V1ComputedParameterDto: {
      /** @description Parameter code */
      code: string;
      /** @description Parameter title */
      title: string;
      /**
       * @description Where the value came from: the message, or the static or dynamic agent variables
       * @enum {string}
       */
      scope: 'message' | 'static' | 'dynamic';
    };
    V1JsxWidgetDto: {
      /** @description The card's title */
      name: string;
      /** @description The tool that produced the card */
      category: string;
      /** @description The card's JSX */
      rendered_jsx: string;
      /** @description True for the top pick */
      is_recommended: boolean;
      /** @description The card's position in the reply */
      index: number;
    };
    V1ResponseDto: {
      /**
       * @description An answer (with or without cards), a clarifying question (an `ask` rule) or a block
       * @enum {string}
       */
      type: 'answer' | 'answer_with_cards' | 'question' | 'block';
      /** @description The reply text as sent */
      message: string;
      /** @description The follow-up suggestions sent with the reply */
      suggestions: string[];
      /** @description For a question: the rule and condition that asked it; empty otherwise */
      question_reason: string;
      /** @description For a question: the parameters asked for */
      asking_for: string[];
      /** @description For a block: the message of the guardrail or rule that blocked */
      block_message: string;
      /** @description Always empty: engine failures are errors, not traces */
      error: string;
      /** @description The cards sent with the reply */
      jsx_widgets: components['schemas']['V1JsxWidgetDto'][];
    };
    V1RuleConditionDto: {
      /** @description The comparison, e.g. `greater_than_or_equal` */
      method: string;
      /** @description The evaluated condition, e.g. `budget (100) >= 80 → true` */
      operation: string;
    };
    V1RuleReasonDto: {
      /** @description Whether the condition held */
      passed: boolean;
      /**
       * @description Rules are triggered by parameters
       * @enum {string}
       */
      trigger_type: 'parameter';
      /** @description The condition evaluated */
      condition: components['schemas']['V1RuleConditionDto'];
    };
    V1RuleEvaluationDto: {
      /** @description Rule code */
      code: string;
      /** @description Whether the rule fired */
      triggered: boolean;
      /** @description The condition and its outcome */
      reason: components['schemas']['V1RuleReasonDto'][];
    };
    TraceModelDto: {
      /**
       * @description The bundle's `model.provider` (builtin when it names none)
       * @enum {string}
       */
      provider: 'builtin' | 'openai' | 'anthropic';
      /**
       * @description The model asked for: the bundle's `model.name`, else the provider's default; null for builtin
       * @example gpt-4o-mini
       */
      name: string | null;
      /**
       * @description The base URL the provider calls (OPENAI_BASE_URL / ANTHROPIC_BASE_URL; scheme, host and path only); null for builtin
       * @example https://api.openai.com/v1
       */
      endpoint: string | null;
      /**
       * @description Who wrote this reply: the provider, or builtin (the engine’s own reply) when the bundle names no model, the reply is fixed (a block, a question) or the provider answered nothing
       * @enum {string}
       */
      writer: 'builtin' | 'openai' | 'anthropic';
    };
    AgentRunDto: {
      /**
       * @description The provider that ran the loop
       * @enum {string}
       */
      provider: 'openai' | 'anthropic';
      /** @description The bundle's `model.max_steps` */
      max_steps: number;
      /** @description Model calls made in this turn */
      model_calls: number;
      /** @description The bundle's `model.max_turn_tokens` (default 50000) */
      max_turn_tokens: number;
      /** @description Tokens of every model call of the turn (the usage reported) */
      tokens_used: number;
      /**
       * @description `answered`; or why the fallback reply was given (steps, tokens or time ran out); `guardrail`: a guardrail stopped the message or the reply
       * @enum {string}
       */
      stop_reason: 'answered' | 'max_steps' | 'token_budget' | 'turn_deadline' | 'guardrail';
      /** @description The stop in words */
      detail: string;
    };
    V1TraceDto: {
      /**
       * @description The decisioning engine; selects this shape (enum property replaced by openapi-typescript)
       * @enum {string}
       */
      runtime: 'v1';
      /** @description What the engine was given */
      input: components['schemas']['V1TraceInputDto'];
      /** @description Intents recognised and the guardrail check */
      understanding: components['schemas']['V1UnderstandingDto'];
      /** @description Every tool call, then every rule evaluation, in order */
      decisions: components['schemas']['V1DecisionDto'][];
      /** @description Parameters computed from the message and the agent variables */
      computed_parameters: components['schemas']['V1ComputedParameterDto'][];
      /** @description The reply and what kind of reply it is */
      response: components['schemas']['V1ResponseDto'];
      /** @description Each rule's condition and whether it fired */
      rules_evaluations: components['schemas']['V1RuleEvaluationDto'][];
      /** @description Which provider, model and endpoint wrote the reply (absent on traces recorded before it existed) */
      model?: components['schemas']['TraceModelDto'];
      /** @description Agent mode only: the model's loop and why it stopped */
      agent?: components['schemas']['AgentRunDto'];
    };
    V2IntentScoreDto: {
      /** @description Intent name */
      name: string;
      /** @description Classifier score (cosine similarity, 3 decimals) */
      score: number;
    };
    V2UnderstandingDto: {
      /** @description The question as asked (trimmed) */
      question: string;
      /** @description The question's own keywords (stemmed) */
      keywords: string[];
      /** @description Keywords carried over from the previous question for a short follow-up (build 2.1); empty otherwise */
      context_keywords: string[];
      /** @description The recognised intent, or null */
      intent: string | null;
      /** @description Every recognised intent with its score, best first */
      intents: components['schemas']['V2IntentScoreDto'][];
    };
    V2LearnedDto: {
      /** @description `agent_variables.static`, `agent_variables.dynamic` or `history` */
      source: string;
      /** @description The variable name, or `previous_question` */
      key: string;
      /** @description The value learned */
      value: string | number | boolean;
    };
    V2SourceReadDto: {
      /** @description Knowledge document id */
      document_id: string;
      /** @description Document title */
      title: string;
      /** @description How many of its passages the search returned */
      passages_considered: number;
    };
    V2PassageUsedDto: {
      /** @description Passage id (`<document id>#p<n>`) */
      passage_id: string;
      /** @description The document the passage belongs to */
      document_id: string;
      /** @description Retrieval score (BM25+, 3 decimals) */
      score: number;
      /** @description The passage text */
      text: string;
    };
    V2CitationDto: {
      /** @description The `[n]` marker in the reply */
      marker: number;
      /** @description Cited document id */
      document_id: string;
      /** @description Cited document title */
      title: string;
      /** @description The document's URL; empty when it has none */
      url: string;
      /** @description Cited passage id */
      passage_id: string;
      /** @description The passage text */
      text: string;
    };
    V2PolicyDto: {
      /** @description `guardrails`, `grounded_only`, `no_answer_without_sources`, `multi_passage` or `history_context` */
      code: string;
      /** @description What the policy decided, e.g. `allow`, `block`, `applied`, `triggered`, `enabled`, `used` */
      decision: string;
      /** @description Why, in words; may be empty */
      detail: string;
    };
    V2CheckDto: {
      /** @description `guardrails`, `citations_map_to_passages`, `answer_is_grounded` or `answerable` */
      name: string;
      /** @description Whether the check passed */
      passed: boolean;
      /** @description What was checked and found */
      detail: string;
      /** @description `answerable` only: share of the question (0–1) the best passage covers */
      confidence?: number;
      /** @description `answerable` only: the min_confidence it was compared with */
      threshold?: number;
      /** @description `answerable` only: the best passage's score over the next document's best */
      margin?: number;
      /** @description `answerable` only: question words nothing in the best passage covers */
      uncovered_words?: string[];
    };
    V2FusedPassageDto: {
      /** @description Passage id */
      passage_id: string;
      /** @description Reciprocal rank fusion score: Σ 1/(60 + rank) over the rankings holding the passage */
      score: number;
      /** @description Rank in the lexical ranking (1 = best); null when absent */
      lexical_rank: number | null;
      /** @description Rank in the dense ranking (1 = best); null when absent */
      dense_rank: number | null;
      /** @description Cosine similarity to the question (3 decimals); null when not among the dense hits */
      similarity: number | null;
    };
    V2DenseRetrievalDto: {
      /**
       * @description `used`: fused with the lexical ranking; `failed`: the turn ranked lexically
       * @enum {string}
       */
      status: 'used' | 'failed';
      /** @description The embeddings model (name, `@<dimensions>` when set) */
      model: string;
      /** @description Why the embeddings could not be used; null when used */
      reason: string | null;
      /** @description True when the embeddings endpoint was not called in this turn: it failed for this revision less than 30 s ago (the failure hold), so the turn ranked lexically at once */
      held: boolean;
      /** @description Similarity a dense hit needed to take part; null when failed */
      min_similarity: number | null;
      /** @description The fused order, best first (top 10); empty when failed */
      fused: components['schemas']['V2FusedPassageDto'][];
    };
    V2ModelDeclineDto: {
      /** @description The reply is a decline: the instructed sentence or a recognised paraphrase, citing nothing */
      declined: boolean;
      /**
       * @description How it was recognised; null when not
       * @enum {string|null}
       */
      how: 'sentence' | 'paraphrase' | null;
      /** @description The words recognised (≤ 200 characters); null when none */
      matched: string | null;
    };
    AgentStepDto: {
      /**
       * @description The step id, `s<n>` for the n-th call of the turn (as in the `step` stream events)
       * @example s1
       */
      id: string;
      /**
       * @description The tool as the model saw it (`<server>__<tool>` for MCP tools)
       * @example search_knowledge
       */
      tool: string;
      /** @description The MCP server of an MCP tool, else null */
      parent_tool: string | null;
      /** @description The model call (1-based) that asked for the call */
      model_call: number;
      /**
       * @description `refused`: a rule or the loop refused it before it ran
       * @enum {string}
       */
      status: 'completed' | 'failed' | 'refused';
      /** @description The arguments as the model wrote them (JSON text, at most 2000 characters) */
      arguments: string;
      /** @description How long the call took */
      duration_ms: number;
      /** @description What it returned in a few words (a top record's title, `3 passage(s)`); empty when it failed */
      output_title: string;
      /** @description Why it failed or was refused; empty when it completed */
      fail_reason: string;
    };
    V2TraceDto: {
      /**
       * @description The grounded engine; selects this shape (enum property replaced by openapi-typescript)
       * @enum {string}
       */
      runtime: 'v2';
      /**
       * @description The engine build that answered
       * @example 2.1.0
       */
      build: string;
      /** @description What the question was understood to ask */
      understanding: components['schemas']['V2UnderstandingDto'];
      /** @description What the engine learned from the agent variables and the thread */
      learned: components['schemas']['V2LearnedDto'][];
      /** @description The documents whose passages the search returned */
      sources_read: components['schemas']['V2SourceReadDto'][];
      /** @description The passages the reply cites */
      passages_used: components['schemas']['V2PassageUsedDto'][];
      /** @description Each citation marker in the reply and the passage it maps to */
      citations_used: components['schemas']['V2CitationDto'][];
      /** @description The policies applied and what each decided */
      policies: components['schemas']['V2PolicyDto'][];
      /** @description The checks run on the reply */
      checks: components['schemas']['V2CheckDto'][];
      /** @description Dense retrieval with the bundle’s embeddings model (docs/knowledge.md); null when the bundle names none */
      dense_retrieval: components['schemas']['V2DenseRetrievalDto'] | null;
      /** @description Whether the model provider said the passages do not answer; null when the builtin writer worded the reply */
      model_decline: components['schemas']['V2ModelDeclineDto'] | null;
      /** @description What happened, in plain language */
      narrative: string;
      /** @description Which provider, model and endpoint wrote the reply (absent on traces recorded before it existed) */
      model?: components['schemas']['TraceModelDto'];
      /** @description Agent mode only: the tool calls the model made, in order */
      steps?: components['schemas']['AgentStepDto'][];
      /** @description Agent mode only: the model's loop and why it stopped */
      agent?: components['schemas']['AgentRunDto'];
    };
    ParticipantDto: {
      /**
       * @description The agent id, or your end-user id
       * @example user-42
       */
      id: string;
      /**
       * @description Who this participant is
       * @enum {string}
       */
      type: 'agent' | 'user';
    };
    SubEntityDto: {
      /**
       * @description Group name
       * @example variants
       */
      name: string;
      /** @description Flat key/value objects */
      items: {
        [key: string]: unknown;
      }[];
    };
    CardJsonDataDto: {
      /** @description Flat key/value object of the card's fields */
      entity: {
        [key: string]: unknown;
      };
      /** @description Nested groups such as variants */
      sub_entities: components['schemas']['SubEntityDto'][];
    };
    CardResponseDto: {
      /** @description Ready-to-render JSX string for React UIs */
      rendered_jsx: string;
      /** @description The agent recommends this card: highlight it */
      is_recommended: boolean;
      /** @description Position of the card in the reply, from 0 */
      index: number;
      /** @description The card as data: render it yourself (treat values as untrusted text) */
      json_data: components['schemas']['CardJsonDataDto'];
      /** @description The agent capability (tool code) that produced the card */
      capability?: string;
      /** @description The record the card is about */
      instance?: string;
      /** @description Card title */
      title?: string;
    };
    CitationDto: {
      /** @description The `[n]` marker in the reply text */
      marker: number;
      /** @description Cited document id */
      document_id: string;
      /** @description Cited document title */
      title: string;
      /** @description The document's URL; empty when it has none */
      url: string;
      /** @description The cited passage */
      text: string;
    };
    MessageDto: {
      /**
       * @description Message id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * Format: date-time
       * @description When the reply was written
       */
      created_at: string;
      /** @description The reply text (Markdown; may hold citation markers like [1]) */
      text: string;
      /** @description The agent */
      sender: components['schemas']['ParticipantDto'];
      /** @description The end user */
      receiver: components['schemas']['ParticipantDto'];
      /** @description Cards of the reply (products, records) */
      cards: components['schemas']['CardResponseDto'][];
      /** @description The live version's greeting */
      welcome_message: string;
      /** @description Ready-made follow-up prompts */
      followup_suggestions: string[];
      /** @description Link to the most relevant source of the reply (top card or first citation); empty when none */
      url: string;
      /** @description The sources the `[n]` markers of the text cite (v2 agents; empty otherwise), without asking for the trace */
      citations: components['schemas']['CitationDto'][];
      /**
       * @description Input tokens of the turn
       * @default 0
       */
      input_tokens: number;
      /**
       * @description Output tokens of the turn
       * @default 0
       */
      output_tokens: number;
      /** @description The reasoning trace (shape selected by `runtime`); present only when the request set include_trace to true */
      trace_info?: components['schemas']['V1TraceDto'] | components['schemas']['V2TraceDto'];
    };
    SendMessageResponseDto: {
      /**
       * @description The resolved thread id
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn) id
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /** @description The agent reply */
      message: components['schemas']['MessageDto'];
      /**
       * @description Present when this turn handed the thread to an operator (a handoff rule, a decline, the agent): the next messages wait for a human
       * @enum {string}
       */
      control?: 'pending';
    };
    HeldMessageResponseDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The id of the recorded end-user message's exchange (no engine ran, no tokens were counted)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Who holds the thread: `pending` (waiting for an operator) or `human`
       * @enum {string}
       */
      control: 'pending' | 'human';
    };
    RerunDto: {
      /**
       * @description Include the reasoning trace as message.trace_info
       * @default false
       */
      include_trace?: boolean;
    };
    WelcomeMessageResponseDto: {
      /**
       * @description The live version's greeting
       * @example Hi! What are you shopping for today?
       */
      welcome_message: string;
      /** @description Prompts to offer before the first message */
      followup_suggestions: string[];
    };
    FollowupSuggestionsRequestDto: {
      /** @description Suggest from this thread’s conversation */
      thread_id?: string;
      /** @description Suggest from this text (e.g. what the user is looking at) */
      text?: string;
      /**
       * @description How many suggestions at most
       * @default 3
       */
      limit?: number;
    };
    FollowupSuggestionsResponseDto: {
      /**
       * @description Suggested next prompts
       * @example [
       *       "Any in size 42?"
       *     ]
       */
      followup_suggestions: string[];
    };
    McpMessageDto: {
      /**
       * @description JSON-RPC version
       * @enum {string}
       */
      jsonrpc: '2.0';
      /** @description Request id (absent on notifications) */
      id?: string | number;
      /**
       * @description initialize, notifications/initialized, ping, tools/list, tools/call (absent on responses)
       * @example tools/call
       */
      method?: string;
      /** @description The method's parameters */
      params?: {
        [key: string]: unknown;
      };
      /** @description A response to a server request: its result */
      result?: {
        [key: string]: unknown;
      };
      /** @description A response to a server request: its error */
      error?: {
        [key: string]: unknown;
      };
    };
    McpResponseDto: {
      /**
       * @description JSON-RPC version
       * @enum {string}
       */
      jsonrpc: '2.0';
      /** @description The request id */
      id: (string | number) | null;
      /** @description The result: for tools/call of send_message, `content` (the reply text) and `structuredContent` {thread_id, interaction_id, message} */
      result?: {
        [key: string]: unknown;
      };
      /** @description A JSON-RPC error {code, message} */
      error?: {
        [key: string]: unknown;
      };
    };
    StreamThreadEventDto: {
      /**
       * @description The thread the turn belongs to
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn) being streamed; event ids are `<interaction_id>:<seq>`
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
    };
    StreamStepDto: {
      /**
       * @description The step id, `s<n>` for the n-th tool call of the turn (the trace names it so)
       * @example s1
       */
      id: string;
      /**
       * @description The tool as the model called it (`<server>__<tool>` for MCP tools)
       * @example search_knowledge
       */
      tool: string;
      /**
       * @description `started`, then one of `completed`, `failed` or `refused` (a rule or the loop refused the call)
       * @enum {string}
       */
      status: 'started' | 'completed' | 'failed' | 'refused';
      /** @description How long the call took (on its end only) */
      duration_ms?: number;
    };
    StreamStepEventDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /** @description The tool call */
      step: components['schemas']['StreamStepDto'];
    };
    StreamDeltaEventDto: {
      /**
       * @description The next piece of the reply text
       * @example Here are
       */
      text: string;
    };
    StreamCardEventDto: {
      /** @description A card of the reply */
      card: components['schemas']['CardResponseDto'];
    };
    StreamMessageEventDto: {
      /**
       * @description The resolved thread id
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn) id
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /** @description The agent reply */
      message: components['schemas']['MessageDto'];
      /**
       * @description Present when this turn handed the thread to an operator (a handoff rule, a decline, the agent): the next messages wait for a human
       * @enum {string}
       */
      control?: 'pending';
    };
    StreamSuggestionsEventDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Suggested next prompts (possibly empty)
       * @example [
       *       "Any in size 42?"
       *     ]
       */
      followup_suggestions: string[];
    };
    StreamControlEventDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Who holds the thread now
       * @enum {string}
       */
      control: 'pending' | 'human';
    };
    StreamErrorEventDto: {
      /** @description The error envelope body */
      error: components['schemas']['ErrorBodyDto'];
    };
    CreateEventDto: {
      /**
       * @description The message to run the agent on; omit to run on agent_variables alone
       * @example Order 1042 was delivered
       */
      text?: string;
      /**
       * @description Free-form key/value data (any JSON values); default {}. A string `user_id` here names the end user.
       * @example {
       *       "order_id": 1042
       *     }
       */
      agent_variables?: {
        [key: string]: unknown;
      };
      /**
       * @description Your conversation id (trimmed, 1..255); reuse continues the conversation; omitted or blank starts a new one
       * @example order-1042
       */
      thread_id?: string;
    };
    EventAcceptedDto: {
      /**
       * @description The id of the queued event
       * @example 6740a1b2c3d4e5f601234567
       */
      event_id: string;
    };
    EventStatusDto: {
      /**
       * @description The event
       * @example 6740a1b2c3d4e5f601234567
       */
      event_id: string;
      /**
       * @description Processing state
       * @enum {string}
       */
      status: 'queued' | 'processing' | 'completed' | 'failed';
      /** @description Our thread the event ran on; null until processed */
      thread_id: string | null;
      /** @description The caller’s thread_id (the thread’s external_id); null when none was given */
      external_thread_id: string | null;
      /** @description Processing attempts so far */
      attempts: number;
      /** @description Why the last attempt failed (present on failed events and on queued events awaiting a retry) */
      error?: string;
      /**
       * Format: date-time
       * @description When the event was accepted
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the event completed or failed
       */
      completed_at?: string;
    };
    CreateSenderDto: {
      /**
       * @description The channel the number serves
       * @example whatsapp
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms';
      /**
       * @description The connected number, E.164
       * @example +15550100000
       */
      phone_number: string;
      /**
       * @description Name for people
       * @example Trail Shop support
       */
      display_name?: string;
    };
    SenderResponseDto: {
      /**
       * @description Sender id (pass as sender_id)
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The channel the number serves
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms';
      /**
       * @description The connected number, E.164
       * @example +15550100000
       */
      phone_number: string;
      /** @description Name for people */
      display_name: string | null;
      /**
       * Format: date-time
       * @description When the number was connected
       */
      created_at: string;
    };
    StartChannelThreadDto: {
      /**
       * @description Your id of the end user
       * @example user-42
       */
      user_id: string;
      /**
       * @description The recipient, E.164
       * @example +15550123456
       */
      phone_number: string;
      /**
       * @description Name the agent signs the opening message with
       * @example Trail Shop
       */
      agent_display_name?: string;
      /** @description A connected sender of the organization (GET /management/v1/senders); omit for the platform default sender */
      sender_id?: string;
    };
    ChannelThreadResponseDto: {
      /**
       * @description The thread (an ordinary thread: transcripts, traces and lists see it)
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The channel
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms';
      /**
       * @description The recipient
       * @example +15550123456
       */
      phone_number: string;
      /**
       * @description Your id of the end user
       * @example user-42
       */
      user_id: string;
      /**
       * @description Status of the opening message: queued (recorded, waiting for the provider), sent (accepted by the provider), delivered, or undelivered (see docs/channels.md)
       * @enum {string}
       */
      status: 'queued' | 'sent' | 'delivered' | 'undelivered';
      /**
       * @description The sender's number; present only when sender_id was given
       * @example +15550100000
       */
      from?: string;
    };
    InboundChannelMessageDto: {
      /**
       * @description Provider message id: the deduplication key
       * @example SM0123456789abcdef0123456789abcdef
       */
      MessageSid: string;
      /**
       * @description The end user (whatsapp: prefix on WhatsApp)
       * @example whatsapp:+15550123456
       */
      From: string;
      /**
       * @description Our sender number
       * @example whatsapp:+15550100000
       */
      To: string;
      /**
       * @description The message text; a longer one is acknowledged and recorded cut, never answered
       * @example Do you have trail shoes?
       */
      Body: string;
    };
    ProviderStatusCallbackDto: {
      /**
       * @description Provider id of our outbound message
       * @example SM0123456789abcdef0123456789abcdef
       */
      MessageSid: string;
      /**
       * @description Delivery state
       * @enum {string}
       */
      MessageStatus: 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'undelivered' | 'failed';
      /**
       * @description Provider error code of a failed delivery (1–10 digits; another value is ignored)
       * @example 30003
       */
      ErrorCode?: string;
    };
    ThreadItemDto: {
      /**
       * @description Thread id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /** @description The first message, shortened; renamable */
      title: string;
      /**
       * Format: date-time
       * @description When the thread started
       */
      created_at: string;
      /**
       * @description The agent version the conversation (last) ran on
       * @example v3.2
       */
      version_tag: string;
      /**
       * @description The agent of the thread
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description End-user id */
      user_id: string;
      /** @description The caller's own conversation id, when one was given */
      external_id: string | null;
      /**
       * @description Who holds the thread: the agent, nobody yet (waiting for an operator), or an operator (docs/handoff.md)
       * @enum {string}
       */
      control: 'agent' | 'pending' | 'human';
      /** @description The operator (user id) holding the thread; null unless `human` */
      assignee: string | null;
    };
    UserErasureResponseDto: {
      /**
       * @description The end user whose threads were deleted
       * @example user-42
       */
      user_id: string;
      /**
       * @description Threads deleted (with their messages, traces and channel messages)
       * @example 3
       */
      deleted_threads: number;
      /**
       * @description Interactions (turns) deleted with them; usage totals keep counting them
       * @example 7
       */
      deleted_interactions: number;
      /**
       * @description Events-webhook events that ran on those threads, deleted with them
       * @example 0
       */
      deleted_events: number;
    };
    ThreadDto: {
      /**
       * @description Thread id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /** @description The first message, shortened; renamable */
      title: string;
      /**
       * Format: date-time
       * @description When the thread started
       */
      created_at: string;
      /**
       * @description The agent version the conversation (last) ran on
       * @example v3.2
       */
      version_tag: string;
      /**
       * @description The agent of the thread
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description End-user id */
      user_id: string;
      /** @description The caller's own conversation id, when one was given */
      external_id: string | null;
      /**
       * @description Who holds the thread: the agent, nobody yet (waiting for an operator), or an operator (docs/handoff.md)
       * @enum {string}
       */
      control: 'agent' | 'pending' | 'human';
      /** @description The operator (user id) holding the thread; null unless `human` */
      assignee: string | null;
      /**
       * @description The project of the agent
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /**
       * @description Engine generation of the thread
       * @enum {string}
       */
      runtime: 'v1' | 'v2';
      /** @description Turns in the thread */
      interaction_count: number;
      /**
       * Format: date-time
       * @description When the last turn ran
       */
      last_interaction_at: string | null;
      /**
       * Format: date-time
       * @description When the thread last changed
       */
      updated_at: string;
      /** @description Tools (capabilities) activated in the thread */
      tools: string[];
      /** @description Rule outcomes: `code`, `code:fired`, `code:blocked`, `code:passed` */
      rules: string[];
      /** @description Parameters computed in the thread (latest value per key) */
      params: {
        [key: string]: unknown;
      };
      /** @description Why the last handoff was asked for */
      handoff_reason: string | null;
      /**
       * Format: date-time
       * @description When the last handoff was asked for
       */
      handoff_requested_at: string | null;
      /**
       * Format: date-time
       * @description When an operator accepted it (time to accept)
       */
      handoff_accepted_at: string | null;
      /**
       * Format: date-time
       * @description When it went back to the agent (time held)
       */
      handoff_released_at: string | null;
    };
    RenameThreadDto: {
      /**
       * @description The new title
       * @example Trail shoes under $100
       */
      title: string;
    };
    ThreadMessageDto: {
      /**
       * @description Message id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description Who wrote it: the end user, the agent, an operator, or a control note (a handoff was asked for, accepted, released…)
       * @enum {string}
       */
      role: 'user' | 'agent' | 'operator' | 'note';
      /** @description Message text; empty for an image-only user message or a note without text */
      text: string;
      /**
       * Format: date-time
       * @description When it was written
       */
      created_at: string;
      /** @description The interaction (turn) this message belongs to; null for operator messages and notes */
      interaction_id: string | null;
      /** @description Operator messages and notes: the operator (user id) */
      author_id?: string | null;
      /**
       * @description Notes: what changed the control
       * @enum {string}
       */
      change?: 'requested' | 'accepted' | 'takeover' | 'released' | 'timed_out';
      /** @description Notes: why a handoff was asked for */
      reason?: string | null;
      /** @description User messages: the image sent for vision input */
      image_url?: string | null;
      /** @description Agent replies: the cards */
      cards?: components['schemas']['CardResponseDto'][];
      /** @description Agent replies: the follow-up suggestions */
      followup_suggestions?: string[];
      /** @description Agent replies: the most relevant link, empty when none */
      url?: string;
      /** @description Agent replies: the agent version that answered */
      version_tag?: string;
      /** @description Agent replies: input tokens of the turn */
      input_tokens?: number;
      /** @description Agent replies: output tokens of the turn */
      output_tokens?: number;
    };
    V1TraceRecordDto: {
      /**
       * @description The decisioning engine; selects this shape (enum property replaced by openapi-typescript)
       * @enum {string}
       */
      runtime: 'v1';
      /** @description What the engine was given */
      input: components['schemas']['V1TraceInputDto'];
      /** @description Intents recognised and the guardrail check */
      understanding: components['schemas']['V1UnderstandingDto'];
      /** @description Every tool call, then every rule evaluation, in order */
      decisions: components['schemas']['V1DecisionDto'][];
      /** @description Parameters computed from the message and the agent variables */
      computed_parameters: components['schemas']['V1ComputedParameterDto'][];
      /** @description The reply and what kind of reply it is */
      response: components['schemas']['V1ResponseDto'];
      /** @description Each rule's condition and whether it fired */
      rules_evaluations: components['schemas']['V1RuleEvaluationDto'][];
      /** @description Which provider, model and endpoint wrote the reply (absent on traces recorded before it existed) */
      model?: components['schemas']['TraceModelDto'];
      /** @description Agent mode only: the model's loop and why it stopped */
      agent?: components['schemas']['AgentRunDto'];
      /**
       * @description The interaction (turn) this trace records
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description The thread of the interaction
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The version that answered (with a traffic split: the arm)
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision tag that answered (with a traffic split: the arm)
       * @example v2.1
       */
      version_tag: string;
      /**
       * Format: date-time
       * @description When the interaction was recorded
       */
      created_at: string;
    };
    V2TraceRecordDto: {
      /**
       * @description The grounded engine; selects this shape (enum property replaced by openapi-typescript)
       * @enum {string}
       */
      runtime: 'v2';
      /**
       * @description The engine build that answered
       * @example 2.1.0
       */
      build: string;
      /** @description What the question was understood to ask */
      understanding: components['schemas']['V2UnderstandingDto'];
      /** @description What the engine learned from the agent variables and the thread */
      learned: components['schemas']['V2LearnedDto'][];
      /** @description The documents whose passages the search returned */
      sources_read: components['schemas']['V2SourceReadDto'][];
      /** @description The passages the reply cites */
      passages_used: components['schemas']['V2PassageUsedDto'][];
      /** @description Each citation marker in the reply and the passage it maps to */
      citations_used: components['schemas']['V2CitationDto'][];
      /** @description The policies applied and what each decided */
      policies: components['schemas']['V2PolicyDto'][];
      /** @description The checks run on the reply */
      checks: components['schemas']['V2CheckDto'][];
      /** @description Dense retrieval with the bundle’s embeddings model (docs/knowledge.md); null when the bundle names none */
      dense_retrieval: components['schemas']['V2DenseRetrievalDto'] | null;
      /** @description Whether the model provider said the passages do not answer; null when the builtin writer worded the reply */
      model_decline: components['schemas']['V2ModelDeclineDto'] | null;
      /** @description What happened, in plain language */
      narrative: string;
      /** @description Which provider, model and endpoint wrote the reply (absent on traces recorded before it existed) */
      model?: components['schemas']['TraceModelDto'];
      /** @description Agent mode only: the tool calls the model made, in order */
      steps?: components['schemas']['AgentStepDto'][];
      /** @description Agent mode only: the model's loop and why it stopped */
      agent?: components['schemas']['AgentRunDto'];
      /**
       * @description The interaction (turn) this trace records
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description The thread of the interaction
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The version that answered (with a traffic split: the arm)
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision tag that answered (with a traffic split: the arm)
       * @example v2.1
       */
      version_tag: string;
      /**
       * Format: date-time
       * @description When the interaction was recorded
       */
      created_at: string;
    };
    VersionUsageDto: {
      /** @description Billed interactions, one per interaction */
      interaction_count: number;
      /** @description Prompt tokens */
      input_tokens: number;
      /** @description Completion tokens */
      output_tokens: number;
      /** @description Cached (read) input tokens */
      cache_read_tokens: number;
      /** @description Reasoning tokens (models that report them) */
      reasoning_tokens: number;
      /** @description input + output + cache-read + reasoning tokens */
      total_tokens: number;
      /**
       * @description The revision tag (`vN.R`) that answered these interactions
       * @example v2.1
       */
      version_tag: string;
    };
    GroupedUsageDto: {
      /** @description Billed interactions, one per interaction */
      interaction_count: number;
      /** @description Prompt tokens */
      input_tokens: number;
      /** @description Completion tokens */
      output_tokens: number;
      /** @description Cached (read) input tokens */
      cache_read_tokens: number;
      /** @description Reasoning tokens (models that report them) */
      reasoning_tokens: number;
      /** @description input + output + cache-read + reasoning tokens */
      total_tokens: number;
      /** @description With group_by=version_tag: the sums per revision tag, most interactions first; they add up to the totals */
      by_version?: components['schemas']['VersionUsageDto'][];
    };
    KnowledgeDocumentItemDto: {
      /**
       * @description The id in the bundle; an uploaded file’s documents are `<file>` and `<file>:<heading>`
       * @example returns.md:refunds
       */
      id: string;
      /**
       * @description The document title (file heading path)
       * @example Returns › Refunds
       */
      title: string;
      /** @description Link to the source, cited in replies; null when none */
      url: string | null;
      /** @description Length of the text, in characters */
      characters: number;
    };
    KnowledgeUploadResponseDto: {
      /**
       * @description The version pushed to
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The committed revision (the current one when the bundle was unchanged)
       * @example 6740a1b2c3d4e5f601234567
       */
      revision_id: string;
      /**
       * @description Tag of the committed revision
       * @example v3.2
       */
      version_tag: string;
      /**
       * @description Digest of the bundle
       * @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
       */
      digest: string;
      /**
       * Format: date-time
       * @description When the revision was committed
       */
      created_at: string;
      /** @description The documents the files made, in file order */
      documents: components['schemas']['KnowledgeDocumentItemDto'][];
      /** @description Documents of earlier uploads of the same files that these replaced */
      replaced: string[];
    };
    KnowledgeListDto: {
      /** @description The version listed */
      version_id: string;
      /**
       * @description Its current revision, whose documents these are
       * @example v3.2
       */
      version_tag: string;
      /** @description In bundle order (at most 2000, the bundle’s limit) */
      results: components['schemas']['KnowledgeDocumentItemDto'][];
    };
    KnowledgeSearchDto: {
      /**
       * @description The question, as an end user would ask it
       * @example How long do refunds take?
       */
      query: string;
    };
    KnowledgePassageDto: {
      /**
       * @description Order in which the reply would use it (its citation marker)
       * @example 1
       */
      rank: number;
      /**
       * @description The passage (a chunk of a document)
       * @example returns.md:refunds#p1
       */
      passage_id: string;
      /**
       * @description Its document
       * @example returns.md:refunds
       */
      document_id: string;
      /**
       * @description Its document’s title
       * @example Returns › Refunds
       */
      title: string;
      /**
       * @description Retrieval score (higher is better; comparable within one answer only)
       * @example 7.42
       */
      score: number;
      /** @description The passage text */
      text: string;
    };
    KnowledgeConsideredDto: {
      /** @description A document with matching passages */
      document_id: string;
      /** @description Its title */
      title: string;
      /** @description How many of its passages matched */
      passages_considered: number;
    };
    KnowledgeSearchResponseDto: {
      /** @description The version searched */
      version_id: string;
      /**
       * @description Its current revision, whose knowledge was searched
       * @example v3.2
       */
      version_tag: string;
      /** @description Whether the agent would answer (true) or decline (false: nothing covers the question well enough) */
      answerable: boolean;
      /** @description The passages a reply would use, in citation order (empty when it would decline) */
      results: components['schemas']['KnowledgePassageDto'][];
      /** @description Every document with matching passages, best first */
      considered: components['schemas']['KnowledgeConsideredDto'][];
      /** @description The engine’s own account of the decision, in plain language */
      narrative: string;
    };
    CreateWebhookDto: {
      /**
       * @description Where deliveries are POSTed: http(s), and not a loopback, private, link-local or metadata address
       * @example https://hooks.example.com/agent-service
       */
      url: string;
      /**
       * @description The event types to deliver
       * @example [
       *       "turn.completed"
       *     ]
       */
      events: (
        | 'turn.completed'
        | 'event.completed'
        | 'event.failed'
        | 'thread.created'
        | 'version.published'
        | 'channel.message.status'
        | 'thread.handoff_requested'
        | 'thread.handoff_accepted'
        | 'thread.handoff_released'
        | 'thread.message_created'
        | 'message.feedback'
      )[];
      /**
       * @description For people
       * @example CRM sync
       */
      description?: string;
      /**
       * @description Whether messages are delivered
       * @default true
       */
      enabled?: boolean;
    };
    WebhookWithSecretResponseDto: {
      /**
       * @description Webhook endpoint id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The project whose messages it receives
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /**
       * @description Where deliveries are POSTed
       * @example https://hooks.example.com/agent-service
       */
      url: string;
      /**
       * @description For people
       * @example CRM sync
       */
      description: string;
      /**
       * @description The event types delivered
       * @example [
       *       "turn.completed"
       *     ]
       */
      events: (
        | 'turn.completed'
        | 'event.completed'
        | 'event.failed'
        | 'thread.created'
        | 'version.published'
        | 'channel.message.status'
        | 'thread.handoff_requested'
        | 'thread.handoff_accepted'
        | 'thread.handoff_released'
        | 'thread.message_created'
        | 'message.feedback'
      )[];
      /** @description false: nothing is delivered (disabled by request, by a 410 answer or by failures in a row) */
      enabled: boolean;
      /**
       * @description Why it is disabled
       * @example null
       */
      disabled_reason: string | null;
      /** @description Failed attempts in a row */
      consecutive_failures: number;
      /**
       * Format: date-time
       * @description Until when the previous secret still signs beside the current one (after a rotation)
       */
      previous_secret_expires_at: string | null;
      /**
       * Format: date-time
       * @description When it was created
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When it last changed
       */
      updated_at: string;
      /**
       * @description The signing secret (Standard Webhooks `whsec_` + base64). Shown only here: store it now.
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secret: string;
    };
    WebhookResponseDto: {
      /**
       * @description Webhook endpoint id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The project whose messages it receives
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /**
       * @description Where deliveries are POSTed
       * @example https://hooks.example.com/agent-service
       */
      url: string;
      /**
       * @description For people
       * @example CRM sync
       */
      description: string;
      /**
       * @description The event types delivered
       * @example [
       *       "turn.completed"
       *     ]
       */
      events: (
        | 'turn.completed'
        | 'event.completed'
        | 'event.failed'
        | 'thread.created'
        | 'version.published'
        | 'channel.message.status'
        | 'thread.handoff_requested'
        | 'thread.handoff_accepted'
        | 'thread.handoff_released'
        | 'thread.message_created'
        | 'message.feedback'
      )[];
      /** @description false: nothing is delivered (disabled by request, by a 410 answer or by failures in a row) */
      enabled: boolean;
      /**
       * @description Why it is disabled
       * @example null
       */
      disabled_reason: string | null;
      /** @description Failed attempts in a row */
      consecutive_failures: number;
      /**
       * Format: date-time
       * @description Until when the previous secret still signs beside the current one (after a rotation)
       */
      previous_secret_expires_at: string | null;
      /**
       * Format: date-time
       * @description When it was created
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When it last changed
       */
      updated_at: string;
    };
    UpdateWebhookDto: {
      /**
       * @description Where deliveries are POSTed (same policy as on create)
       * @example https://hooks.example.com/agent-service/v2
       */
      url?: string;
      /**
       * @description The event types to deliver (replaces the list)
       * @example [
       *       "turn.completed",
       *       "event.failed"
       *     ]
       */
      events?: (
        | 'turn.completed'
        | 'event.completed'
        | 'event.failed'
        | 'thread.created'
        | 'version.published'
        | 'channel.message.status'
        | 'thread.handoff_requested'
        | 'thread.handoff_accepted'
        | 'thread.handoff_released'
        | 'thread.message_created'
        | 'message.feedback'
      )[];
      /**
       * @description For people
       * @example CRM sync (v2)
       */
      description?: string;
      /**
       * @description true re-enables a disabled endpoint (its failure count starts over)
       * @example true
       */
      enabled?: boolean;
    };
    RotateWebhookSecretDto: {
      /**
       * Format: int32
       * @description How long the previous secret keeps signing beside the new one (default WEBHOOKS_SECRET_OVERLAP_SECONDS; 0: none)
       * @example 3600
       */
      overlap_seconds?: number;
    };
    WebhookAttemptDto: {
      /**
       * @description Attempt number, from 1
       * @example 1
       */
      attempt: number;
      /**
       * Format: date-time
       * @description When the attempt started
       */
      at: string;
      /**
       * @description The receiver’s status; null when none came
       * @example 500
       */
      status_code: number | null;
      /**
       * @description Milliseconds until the answer (or the failure)
       * @example 84
       */
      latency_ms: number | null;
      /**
       * @description Why the attempt failed without a status
       * @example timeout
       */
      error: string | null;
      /** @description The start of the receiver’s answer (1 KiB at most) */
      response_body: string | null;
    };
    WebhookDeliveryResponseDto: {
      /**
       * @description Delivery id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The `webhook-id` header: the same on every attempt
       * @example msg_674a1c2e9b1d4e0012345678
       */
      webhook_id: string;
      /**
       * @description The message’s type
       * @enum {string}
       */
      event_type:
        | 'turn.completed'
        | 'event.completed'
        | 'event.failed'
        | 'thread.created'
        | 'version.published'
        | 'channel.message.status'
        | 'thread.handoff_requested'
        | 'thread.handoff_accepted'
        | 'thread.handoff_released'
        | 'thread.message_created'
        | 'message.feedback';
      /** @description The thread the message is about, if any */
      thread_id: string | null;
      /** @description The message’s sequence number in its thread */
      sequence: number | null;
      /**
       * @description pending: an attempt is due or running
       * @enum {string}
       */
      status: 'pending' | 'delivered' | 'failed';
      /** @description Attempts made */
      attempts: number;
      /** @description The receiver’s status at the last attempt */
      last_status_code: number | null;
      /** @description Why the last attempt failed */
      last_error: string | null;
      /** @description Latency of the last attempt, ms */
      last_latency_ms: number | null;
      /**
       * Format: date-time
       * @description When the next attempt is due (pending only)
       */
      next_attempt_at: string | null;
      /**
       * Format: date-time
       * @description When a 2xx came
       */
      delivered_at: string | null;
      /** @description The attempts, oldest first (the newest 50) */
      attempt_log: components['schemas']['WebhookAttemptDto'][];
      /** @description The payload as sent */
      payload: {
        [key: string]: unknown;
      };
      /**
       * Format: date-time
       * @description When the message was written
       */
      created_at: string;
    };
    AuditEventResponseDto: {
      /**
       * @description Audit record id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * Format: date-time
       * @description When the change committed (its transaction)
       */
      created_at: string;
      /**
       * @description The credential that made the change
       * @example org_api_key
       * @enum {string}
       */
      actor_kind: 'org_api_key' | 'session' | 'agent_session' | 'agent_api_key' | 'client_token' | 'system';
      /**
       * @description The credential's id: the key id, or the user id of a login session
       * @example 6743a1f0c2b9e4d5a6f70811
       */
      actor_id: string;
      /** @description The user of a login session, else null */
      actor_user_id: string | null;
      /**
       * @description `<resource>.<verb>`
       * @example version.publish
       */
      action: string;
      /**
       * @description The kind of resource changed (`project`, `agent`, `version`, `publishable_key`, …)
       * @example version
       */
      resource_type: string;
      /**
       * @description The id of the resource changed
       * @example 6743a1f0c2b9e4d5a6f70812
       */
      resource_id: string;
      /** @description The x-request-id of the request that made the change */
      request_id: string | null;
      /** @description Summary of the state before (null on create) */
      before: {
        [key: string]: unknown;
      } | null;
      /** @description Summary of the state after (null on delete) */
      after: {
        [key: string]: unknown;
      } | null;
    };
    FeedParticipantDto: {
      /** @description The operator (user id), the end user (your id) or the agent id */
      id: string;
      /**
       * @description Who wrote it
       * @enum {string}
       */
      type: 'operator' | 'user' | 'agent';
    };
    FeedMessageDto: {
      /**
       * @description The message
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * Format: date-time
       * @description When it was written
       */
      created_at: string;
      /** @description The text */
      text: string | null;
      /** @description The operator, or the end user (inbox only) */
      sender: components['schemas']['FeedParticipantDto'];
    };
    FeedMessageEventDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description The message */
      message: components['schemas']['FeedMessageDto'];
    };
    FeedControlEventDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description Who holds the thread now
       * @enum {string}
       */
      control: 'agent' | 'pending' | 'human';
      /**
       * @description What happened (`current`: the state when the stream opened)
       * @enum {string}
       */
      change: 'requested' | 'accepted' | 'takeover' | 'released' | 'timed_out' | 'current';
      /** @description The operator (user id) holding it */
      assignee: string | null;
      /** @description Why a human was asked for */
      reason: string | null;
      /** @description What the end user is told (the bundle's handoff or timeout message) */
      text: string | null;
      /**
       * Format: date-time
       * @description When it changed
       */
      at: string;
    };
    HandoffRequestDto: {
      /**
       * @description Why a human is wanted (shown in the inbox)
       * @example Billing dispute
       */
      reason?: string;
    };
    ThreadControlDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description Who holds the thread
       * @enum {string}
       */
      control: 'agent' | 'pending' | 'human';
      /** @description The operator (user id) holding it; null unless `human` */
      assignee: string | null;
      /** @description Why the last handoff was asked for */
      reason: string | null;
      /**
       * Format: date-time
       * @description When the last handoff was asked for
       */
      requested_at: string | null;
      /**
       * Format: date-time
       * @description When an operator accepted (or took over)
       */
      accepted_at: string | null;
      /**
       * Format: date-time
       * @description When it went back to the agent
       */
      released_at: string | null;
    };
    OperatorMessageDto: {
      /**
       * @description The operator's message to the end user
       * @example Hi, I am Ana. Let me look.
       */
      text: string;
    };
    OperatorMessageResponseDto: {
      /**
       * @description The message
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /** @description The text */
      text: string;
      /**
       * @description The operator (user id)
       * @example 6740a1b2c3d4e5f601234567
       */
      author_id: string;
      /**
       * Format: date-time
       * @description When it was written
       */
      created_at: string;
    };
    InboxItemDto: {
      /**
       * @description Thread id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /** @description The first message, shortened; renamable */
      title: string;
      /**
       * Format: date-time
       * @description When the thread started
       */
      created_at: string;
      /**
       * @description The agent version the conversation (last) ran on
       * @example v3.2
       */
      version_tag: string;
      /**
       * @description The agent of the thread
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description End-user id */
      user_id: string;
      /** @description The caller's own conversation id, when one was given */
      external_id: string | null;
      /**
       * @description Who holds the thread: the agent, nobody yet (waiting for an operator), or an operator (docs/handoff.md)
       * @enum {string}
       */
      control: 'agent' | 'pending' | 'human';
      /** @description The operator (user id) holding the thread; null unless `human` */
      assignee: string | null;
      /**
       * @description The project
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /**
       * @description The channel of a channel thread
       * @enum {string|null}
       */
      channel: 'whatsapp' | 'sms' | null;
      /** @description Why a human was asked for */
      handoff_reason: string | null;
      /**
       * Format: date-time
       * @description When the handoff was asked for (the inbox is oldest first)
       */
      handoff_requested_at: string;
      /**
       * Format: date-time
       * @description When an operator accepted
       */
      handoff_accepted_at: string | null;
    };
    TurnExpectationDto: {
      /**
       * @description Phrases the reply must contain (case-insensitive)
       * @example [
       *       "30 days"
       *     ]
       */
      contains?: string[];
      /**
       * @description Phrases the reply must not contain (case-insensitive)
       * @example [
       *       "I could not find"
       *     ]
       */
      not_contains?: string[];
      /**
       * @description Knowledge document ids (v2) the reply must cite
       * @example [
       *       "returns"
       *     ]
       */
      cites?: string[];
      /**
       * @description Record ids (v1 catalog) the reply must show as cards
       * @example [
       *       "shoe-1"
       *     ]
       */
      cards?: string[];
      /** @description true: the reply must decline (nothing in the knowledge answers); false: it must not */
      declines?: boolean;
      /**
       * @description Tools that must run for this turn (their codes)
       * @example [
       *       "catalog"
       *     ]
       */
      tools?: string[];
      /** @description true: the turn must hand the thread off to a human; false: it must not */
      handoff?: boolean;
    };
    TestCaseTurnDto: {
      /**
       * @description The end-user message
       * @example How long do I have to return an item?
       */
      text: string;
      /** @description Values for the agent's context variables on this turn */
      agent_variables?: components['schemas']['AgentVariablesDto'];
      /** @description What the reply must do; `{}` only records the reply */
      expect: components['schemas']['TurnExpectationDto'];
    };
    CreateTestCaseDto: {
      /**
       * @description Display name
       * @example Return window
       */
      name: string;
      /** @description The conversation, in order: each turn is answered in the same throwaway thread as the ones before it */
      turns: components['schemas']['TestCaseTurnDto'][];
    };
    TestCaseResponseDto: {
      /**
       * @description Test case id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The agent the case belongs to
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description Display name
       * @example Return window
       */
      name: string;
      /** @description The conversation and what each reply must do */
      turns: components['schemas']['TestCaseTurnDto'][];
      /**
       * Format: date-time
       * @description When the case was created
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the case last changed
       */
      updated_at: string;
    };
    TestCaseSetDto: {
      /** @description The cases */
      test_cases: components['schemas']['CreateTestCaseDto'][];
    };
    TestCaseListDto: {
      /** @description The created cases, in the order given */
      results: components['schemas']['TestCaseResponseDto'][];
    };
    TestCaseFromThreadDto: {
      /** @description A thread of this agent whose conversation becomes the case's turns */
      thread_id: string;
      /** @description Display name (default: the thread's title) */
      name?: string;
    };
    UpdateTestCaseDto: {
      /** @description New name */
      name?: string;
      /** @description Replaces every turn */
      turns?: components['schemas']['TestCaseTurnDto'][];
    };
    EvaluationAcceptedDto: {
      /**
       * @description Evaluation id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description Always queued: the run waits for a worker
       * @example queued
       * @enum {string}
       */
      status: 'queued' | 'running' | 'completed' | 'failed';
    };
    TurnResultDto: {
      /** @description The end-user message of this turn */
      text: string;
      /** @description What the revision answered */
      reply: string;
      /** @description Why the reply failed its expectation, one reason per check; empty: passed */
      failures: string[];
    };
    CaseResultDto: {
      /**
       * @description The test case
       * @example 6740a1b2c3d4e5f601234567
       */
      test_case_id: string;
      /** @description The case's name when the run started */
      name: string;
      /** @description Every turn met its expectation */
      passed: boolean;
      /** @description Passed in the compared run (compared_to) and fails in this one */
      regression: boolean;
      /** @description The turns that ran, in order (a turn the engine could not answer ends the case) */
      turns: components['schemas']['TurnResultDto'][];
    };
    RegressionDto: {
      /**
       * @description The test case
       * @example 6740a1b2c3d4e5f601234567
       */
      test_case_id: string;
      /** @description The case's name */
      name: string;
      /** @description The failure reasons of its turns in this run */
      failures: string[];
    };
    FixedCaseDto: {
      /**
       * @description The test case
       * @example 6740a1b2c3d4e5f601234567
       */
      test_case_id: string;
      /** @description The case's name */
      name: string;
    };
    ComparisonDto: {
      /**
       * @description The live version whose latest run this one is compared with
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision that run evaluated
       * @example v1.0
       */
      version_tag: string;
      /**
       * @description That run
       * @example 6740a1b2c3d4e5f601234567
       */
      evaluation_id: string;
      /** @description Cases that passed there and fail here */
      regressions: components['schemas']['RegressionDto'][];
      /** @description Cases that failed there and pass here */
      fixed: components['schemas']['FixedCaseDto'][];
    };
    EvaluationResponseDto: {
      /**
       * @description Evaluation id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The evaluated version
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The evaluated revision (the version’s current one when the run was asked for)
       * @example 6740a1b2c3d4e5f601234567
       */
      revision_id: string;
      /**
       * @description The evaluated revision’s tag
       * @example v2.3
       */
      version_tag: string;
      /**
       * @description The evaluated bundle’s digest
       * @example sha256:…
       */
      digest: string;
      /**
       * @description queued → running → completed (or failed: see error)
       * @enum {string}
       */
      status: 'queued' | 'running' | 'completed' | 'failed';
      /** @description Every case passed; null until the run completes */
      passed: boolean | null;
      /** @description Cases run */
      case_count: number;
      /** @description Cases that passed */
      passed_count: number;
      /** @description Per case, regressions first, then other failures, then passes (empty in lists and until the run completes) */
      cases: components['schemas']['CaseResultDto'][];
      /** @description Against the live version's latest other run; null without one */
      compared_to: components['schemas']['ComparisonDto'] | null;
      /** @description Why the run could not complete (status failed), or why it cannot pass */
      error: string | null;
      /**
       * Format: date-time
       * @description When the run was asked for
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When a worker started it
       */
      started_at: string | null;
      /**
       * Format: date-time
       * @description When it completed or failed
       */
      completed_at: string | null;
    };
    FeedbackDto: {
      /**
       * @description Thumbs up or down
       * @example up
       * @enum {string}
       */
      rating: 'up' | 'down';
      /**
       * @description Optional words from the end user; a new rating replaces it (null or absent: none)
       * @example Exactly what I needed
       */
      comment?: string | null;
    };
    FeedbackResponseDto: {
      /**
       * @description Feedback id
       * @example 6740a1b2c3d4e5f601234567
       */
      id: string;
      /**
       * @description The rated agent message
       * @example 6740a1b2c3d4e5f601234567
       */
      message_id: string;
      /**
       * @description Its thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The turn that wrote the message
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The thread's end user
       * @example user-42
       */
      user_id: string;
      /**
       * @description The revision that wrote the message
       * @example v2.1
       */
      version_tag: string;
      /**
       * @description The latest rating
       * @enum {string}
       */
      rating: 'up' | 'down';
      /** @description The end user's comment with it */
      comment: string | null;
      /**
       * Format: date-time
       * @description When this (the latest) rating was given
       */
      created_at: string;
    };
    AnalyticsGroupDto: {
      /**
       * @description The group: a revision tag, a version id (arm) or a UTC date (YYYY-MM-DD)
       * @example v2.1
       */
      key: string;
      /** @description arm: the version id; null for the other groupings */
      version_id: string | null;
      /**
       * @description The revision tags counted in this group
       * @example [
       *       "v2.0",
       *       "v2.1"
       *     ]
       */
      version_tags: string[];
      /** @description Threads whose first turn falls in this group */
      threads: number;
      /** @description Agent replies (turns) */
      messages: number;
      /** @description Threads neither handed off nor ending on a decline */
      contained: number;
      /** @description Threads handed off to a human */
      handed_off: number;
      /** @description Threads whose last agent reply declined */
      declined: number;
      /**
       * @description contained / threads; null without threads
       * @example 0.82
       */
      containment_rate: number | null;
      /**
       * @description handed_off / threads
       * @example 0.05
       */
      handoff_rate: number | null;
      /**
       * @description declined / threads
       * @example 0.13
       */
      decline_rate: number | null;
      /** @description Messages rated up (latest ratings) */
      feedback_up: number;
      /** @description Messages rated down (latest ratings) */
      feedback_down: number;
      /**
       * @description Median reply latency, ms (from a fixed-bucket histogram)
       * @example 140
       */
      latency_p50_ms: number | null;
      /**
       * @description 95th percentile reply latency, ms (same histogram)
       * @example 420
       */
      latency_p95_ms: number | null;
      /** @description Prompt tokens of the turns */
      input_tokens: number;
      /** @description Completion tokens of the turns */
      output_tokens: number;
    };
    AnalyticsDto: {
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description How the groups are keyed
       * @enum {string}
       */
      group_by: 'version_tag' | 'arm' | 'day';
      /**
       * Format: date
       * @description First UTC day counted; null: from the start
       */
      from_day: string | null;
      /**
       * Format: date
       * @description Last UTC day counted; null: up to now
       */
      to_day: string | null;
      /** @description Groups in key order */
      groups: components['schemas']['AnalyticsGroupDto'][];
    };
    SessionMessageFrameDto: {
      /**
       * @description The end-user message; required unless image_url is given
       * @example Do you have running shoes under $100?
       */
      text?: string;
      /**
       * @description Your id of the end user
       * @example user-42
       */
      user_id: string;
      /** @description Append to this thread; omit to start a new one */
      thread_id?: string;
      /**
       * @description Signed image URL for vision input
       * @example https://cdn.example.com/u/42/photo.jpg?sig=abc
       */
      image_url?: string;
      /** @description Values for the agent's context variables */
      agent_variables?: components['schemas']['AgentVariablesDto'];
      /**
       * @description Build pin for agents on the v2 engine (e.g. 2.1); ignored for v1 agents
       * @example 2.1
       */
      runtime_version?: string;
      /**
       * @description Include the reasoning trace as message.trace_info
       * @default false
       */
      include_trace?: boolean;
      /**
       * @description Frame type: one turn
       * @enum {string}
       */
      type: 'message';
      /**
       * @description Your id for this request; every server frame about it carries it
       * @example req-1
       */
      id: string;
    };
    SessionFeedbackFrameDto: {
      /**
       * @description Thumbs up or down
       * @example up
       * @enum {string}
       */
      rating: 'up' | 'down';
      /**
       * @description Optional words from the end user; a new rating replaces it (null or absent: none)
       * @example Exactly what I needed
       */
      comment?: string | null;
      /**
       * @description Frame type: rate an agent message
       * @enum {string}
       */
      type: 'feedback';
      /**
       * @description Your id for this request; the answer carries it
       * @example fb-1
       */
      id: string;
      /** @description The `message.id` of an agent reply */
      message_id: string;
    };
    SessionPingFrameDto: {
      /**
       * @description Frame type
       * @enum {string}
       */
      type: 'ping';
    };
    SessionReadyFrameDto: {
      /**
       * @description Frame type: the session is authenticated; send after this
       * @enum {string}
       */
      type: 'ready';
      /**
       * @description Id of this session (for logs)
       * @example 3b1f8c2e-7d4a-4e4b-9c1a-2f5e6d7c8b9a
       */
      session_id: string;
    };
    SessionThreadFrameDto: {
      /**
       * @description The thread the turn belongs to
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn) being streamed; event ids are `<interaction_id>:<seq>`
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Frame type: first frame of a request
       * @enum {string}
       */
      type: 'thread';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionStepFrameDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /** @description The tool call */
      step: components['schemas']['StreamStepDto'];
      /**
       * @description Frame type: a tool call of agent mode as it starts and ends (docs/agents.md)
       * @enum {string}
       */
      type: 'step';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionDeltaFrameDto: {
      /**
       * @description The next piece of the reply text
       * @example Here are
       */
      text: string;
      /**
       * @description Frame type: the next piece of the reply text (runtime-v1 agents only)
       * @enum {string}
       */
      type: 'delta';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionCardFrameDto: {
      /** @description A card of the reply */
      card: components['schemas']['CardResponseDto'];
      /**
       * @description Frame type: a product or record card
       * @enum {string}
       */
      type: 'card';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionReplyFrameDto: {
      /**
       * @description The resolved thread id
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn) id
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /** @description The agent reply */
      message: components['schemas']['MessageDto'];
      /**
       * @description Present when this turn handed the thread to an operator (a handoff rule, a decline, the agent): the next messages wait for a human
       * @enum {string}
       */
      control?: 'pending';
      /**
       * @description Frame type: the whole reply, as POST /messaging/v1/messages answers it
       * @enum {string}
       */
      type: 'message';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionSuggestionsFrameDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Suggested next prompts (possibly empty)
       * @example [
       *       "Any in size 42?"
       *     ]
       */
      followup_suggestions: string[];
      /**
       * @description Frame type: follow-up suggestions
       * @enum {string}
       */
      type: 'suggestions';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionControlFrameDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The interaction (turn)
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Who holds the thread now
       * @enum {string}
       */
      control: 'pending' | 'human';
      /**
       * @description Frame type: the message was recorded for an operator (no engine ran), or the turn handed the thread over
       * @enum {string}
       */
      type: 'control';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionDoneFrameDto: {
      /**
       * @description Frame type: the request is finished
       * @enum {string}
       */
      type: 'done';
      /**
       * @description The id of the client `message` frame this answers
       * @example req-1
       */
      id: string;
    };
    SessionErrorFrameDto: {
      /**
       * @description Frame type: the request failed
       * @enum {string}
       */
      type: 'error';
      /** @description The request id, or null when the frame had no readable id */
      id?: string | null;
      /** @description The error envelope body */
      error: components['schemas']['ErrorBodyDto'];
    };
    SessionPongFrameDto: {
      /**
       * @description Frame type
       * @enum {string}
       */
      type: 'pong';
    };
    SessionFeedbackRecordedFrameDto: {
      /**
       * @description Frame type: the rating was recorded
       * @enum {string}
       */
      type: 'feedback';
      /**
       * @description The id of the client `feedback` frame this answers
       * @example fb-1
       */
      id: string;
      /** @description The rating as recorded */
      feedback: components['schemas']['FeedbackResponseDto'];
    };
    TurnUsageDto: {
      /** @description Tokens the model read */
      input_tokens: number;
      /** @description Tokens the model wrote */
      output_tokens: number;
      /** @description Input tokens read from the provider cache */
      cache_read_tokens: number;
      /** @description Output tokens spent reasoning */
      reasoning_tokens: number;
    };
    TurnReplyDto: {
      /**
       * @description The reply message
       * @example 6740a1b2c3d4e5f601234567
       */
      message_id: string;
      /** @description The reply text */
      text: string;
      /** @description Cards of the reply, as in the send answer */
      cards: components['schemas']['CardResponseDto'][];
      /** @description Follow-up prompts offered with the reply */
      followup_suggestions: string[];
      /** @description Link to the most relevant source of the reply; empty when none */
      url: string;
      /** @description The live version's greeting */
      welcome_message: string;
    };
    TurnCompletedDataDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The turn
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The version that answered
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision tag that answered
       * @example v1.2
       */
      version_tag: string;
      /**
       * @description The surface the turn came from
       * @enum {string}
       */
      source: 'api' | 'rerun' | 'event' | 'channel';
      /** @description The events-webhook event the turn answers */
      event_id: string | null;
      /** @description The end user's id */
      user_id: string;
      /** @description The end user's message (null: an image only) */
      user_text: string | null;
      usage: components['schemas']['TurnUsageDto'];
      reply: components['schemas']['TurnReplyDto'];
      /**
       * Format: date-time
       * @description When the turn was recorded
       */
      created_at: string;
    };
    TurnCompletedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'turn.completed';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['TurnCompletedDataDto'];
    };
    EventCompletedDataDto: {
      /**
       * @description The event
       * @example 6740a1b2c3d4e5f601234567
       */
      event_id: string;
      /**
       * @description The final state
       * @enum {string}
       */
      status: 'completed';
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description The caller's thread id */
      external_thread_id: string | null;
      /**
       * @description The thread the event was answered in
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The turn that answered it
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description Always null: it completed
       * @enum {string|null}
       */
      error: null;
    };
    EventCompletedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'event.completed';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['EventCompletedDataDto'];
    };
    EventFailedDataDto: {
      /**
       * @description The event
       * @example 6740a1b2c3d4e5f601234567
       */
      event_id: string;
      /**
       * @description The final state
       * @enum {string}
       */
      status: 'failed';
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description The caller's thread id */
      external_thread_id: string | null;
      /**
       * @description Always null: no turn was recorded
       * @enum {string|null}
       */
      thread_id: null;
      /**
       * @description Always null: no turn was recorded
       * @enum {string|null}
       */
      interaction_id: null;
      /**
       * @description Why it failed, led by a wire code
       * @example upstream_unavailable: the model provider did not answer
       */
      error: string;
    };
    EventFailedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'event.failed';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['EventFailedDataDto'];
    };
    ThreadCreatedDataDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description The end user's id */
      user_id: string;
      /** @description The caller's thread id (events webhook), else null */
      external_id: string | null;
      /** @description The thread title (from its first message) */
      title: string;
      /**
       * @description The channel of a channel conversation
       * @enum {string|null}
       */
      channel: 'whatsapp' | 'sms' | null;
      /**
       * Format: date-time
       * @description When the thread was created
       */
      created_at: string;
    };
    ThreadCreatedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'thread.created';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['ThreadCreatedDataDto'];
    };
    VersionPublishedDataDto: {
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The version now live
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision now live
       * @example 6740a1b2c3d4e5f601234567
       */
      revision_id: string;
      /**
       * @description The revision tag now live
       * @example v2.0
       */
      version_tag: string;
      /**
       * @description A publish, or a rename that re-published the live revision
       * @enum {string}
       */
      reason: 'publish' | 'rename';
    };
    VersionPublishedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'version.published';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['VersionPublishedDataDto'];
    };
    ChannelMessageStatusDataDto: {
      /**
       * @description The outbound message
       * @example 6740a1b2c3d4e5f601234567
       */
      message_id: string;
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The channel it was sent on
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms';
      /**
       * @description Its new status
       * @enum {string}
       */
      status: 'sent' | 'delivered' | 'undelivered';
      /** @description Why it was not delivered */
      error: string | null;
    };
    ChannelMessageStatusWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'channel.message.status';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['ChannelMessageStatusDataDto'];
    };
    ThreadHandoffDataDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /** @description The end user's id */
      user_id: string;
      /**
       * @description Who holds the thread now
       * @enum {string}
       */
      control: 'agent' | 'pending' | 'human';
      /**
       * @description Who held it before
       * @enum {string}
       */
      previous: 'agent' | 'pending' | 'human';
      /**
       * @description What happened: `takeover` is an accept without a request; `timed_out` a request nobody accepted in time
       * @enum {string}
       */
      change: 'requested' | 'accepted' | 'takeover' | 'released' | 'timed_out';
      /** @description The operator (user id) holding the thread */
      assignee: string | null;
      /** @description Why a human was asked for (`end_user`, `rule: <code>`, `decline`, `agent: …`, or the given reason) */
      reason: string | null;
      /**
       * Format: date-time
       * @description When the handoff was asked for
       */
      requested_at: string | null;
      /**
       * Format: date-time
       * @description When an operator accepted it (or took over)
       */
      accepted_at: string | null;
      /**
       * Format: date-time
       * @description When it went back to the agent
       */
      released_at: string | null;
    };
    ThreadHandoffRequestedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'thread.handoff_requested';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['ThreadHandoffDataDto'];
    };
    ThreadHandoffAcceptedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'thread.handoff_accepted';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['ThreadHandoffDataDto'];
    };
    ThreadHandoffReleasedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'thread.handoff_released';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['ThreadHandoffDataDto'];
    };
    ThreadMessageCreatedDataDto: {
      /**
       * @description The thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The message
       * @example 6740a1b2c3d4e5f601234567
       */
      message_id: string;
      /**
       * @description Who wrote it
       * @enum {string}
       */
      role: 'user' | 'operator';
      /** @description The author: the end user's id, or the operator's user id */
      author_id: string;
      /** @description The text (null: an image only) */
      text: string | null;
      /**
       * @description Who held the thread
       * @enum {string}
       */
      control: 'pending' | 'human';
      /**
       * Format: date-time
       * @description When it was written
       */
      created_at: string;
    };
    ThreadMessageCreatedWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'thread.message_created';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['ThreadMessageCreatedDataDto'];
    };
    MessageFeedbackDataDto: {
      /**
       * @description The rated agent message
       * @example 6740a1b2c3d4e5f601234567
       */
      message_id: string;
      /**
       * @description Its thread
       * @example 6740a1b2c3d4e5f601234567
       */
      thread_id: string;
      /**
       * @description The turn that wrote it
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
      /**
       * @description The agent
       * @example 6740a1b2c3d4e5f601234567
       */
      agent_id: string;
      /**
       * @description The version that wrote it
       * @example 6740a1b2c3d4e5f601234567
       */
      version_id: string;
      /**
       * @description The revision that wrote it
       * @example v2.1
       */
      version_tag: string;
      /** @description The thread's end user */
      user_id: string;
      /**
       * @description The rating (the latest one stands)
       * @enum {string}
       */
      rating: 'up' | 'down';
      /**
       * @description The rating it replaced; null for the first
       * @enum {string|null}
       */
      previous_rating: 'up' | 'down' | null;
      /** @description The end user's comment */
      comment: string | null;
      /**
       * Format: date-time
       * @description When the rating was given
       */
      created_at: string;
    };
    MessageFeedbackWebhook: {
      /**
       * @description The event type
       * @enum {string}
       */
      type: 'message.feedback';
      /**
       * Format: date-time
       * @description When the change happened
       */
      timestamp: string;
      /**
       * @description The organization
       * @example 6740a1b2c3d4e5f601234567
       */
      organization_id: string;
      /**
       * @description The project whose endpoints receive it
       * @example 6740a1b2c3d4e5f601234567
       */
      project_id: string;
      /** @description The thread it is about, if any */
      thread_id: string | null;
      /** @description The message's place among the thread's messages (1, 2, 3…); null for messages without a thread */
      sequence: number | null;
      data: components['schemas']['MessageFeedbackDataDto'];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The limit: `<requests>;w=<window seconds>` (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_SECONDS), per credential */
    'RateLimit-Policy': string;
    /** @description Requests allowed per window for this credential */
    'RateLimit-Limit': number;
    /** @description Requests left in the current window */
    'RateLimit-Remaining': number;
    /** @description Seconds until the current window ends and the count starts over */
    'RateLimit-Reset': number;
    /** @description Seconds to wait before the next request (the current window’s RateLimit-Reset) */
    'Retry-After': number;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  Token_token: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TokenRequestDto'];
        'application/x-www-form-urlencoded': components['schemas']['TokenRequestDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenResponseDto'];
        };
      };
      /** @description OAuth 2.0 style failure, e.g. invalid_grant / invalid_publishable_key */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_grant",
           *       "error_description": "invalid_publishable_key"
           *     }
           */
          'application/json': components['schemas']['OAuthErrorDto'];
        };
      };
      /** @description Rate limit reached (see Retry-After), in the OAuth body */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "rate_limited",
           *       "error_description": "Rate limit reached; retry after 12 seconds"
           *     }
           */
          'application/json': components['schemas']['OAuthErrorDto'];
        };
      };
    };
  };
  Health_live: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Always ok when the service answers
             * @example ok
             * @enum {string}
             */
            status: 'ok';
          };
        };
      };
    };
  };
  Health_ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReadinessDto'];
        };
      };
      /** @description A dependency is unreachable (`not_ready`, see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_ready",
           *         "message": "Not ready: redis unreachable",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "redis",
           *             "message": "redis is unreachable"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at' | 'updated_at' | 'name';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['ProjectResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateProjectDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProjectResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProjectResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateProjectDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProjectResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Bundles_schema: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON Schema document */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Bundles_listTemplates: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateListResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Bundles_getTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A template id from GET /management/v1/templates */
        templateId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateDetailResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Template not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "templateId",
           *             "message": "templateId must be a template id such as shopping-assistant"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at' | 'updated_at' | 'number';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Items of versions in this state */
        'filters[status]'?: 'draft' | 'published' | 'archived';
        /** @description Items whose version has this entry in `tags` */
        'filters[tag]'?: string;
        /** @description Items with exactly this version_tag */
        'filters[version_tag]'?: string;
        /** @description Case-insensitive substring of the label */
        'filters[label]'?: string;
        /** @description Version number (N of vN.R) */
        'filters[number]'?: number;
        /** @description true: base versions only */
        'filters[exclude_revisions]'?: boolean;
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['VersionResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateVersionDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateVersionDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_publish: {
    parameters: {
      query?: {
        /** @description Publish (or split traffic) even when the agent requires a passing evaluation and this revision has none; audited as forced */
        force?: boolean;
      };
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The version is archived (`version_archived`), or the agent requires a passing evaluation and this revision has none (`evaluation_required`; `?force=true` publishes anyway); `idempotency_key_in_progress`: the first request with this Idempotency-Key is still running (see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "version_archived",
           *         "message": "Version 2 is archived; create or pick another version to publish",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_archive: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "version_is_live",
           *         "message": "Version 3 is live; publish another version before archiving it",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_push: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PushBundleDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PushResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code); `idempotency_key_in_progress`: the first request with this Idempotency-Key is still running (see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "version_archived",
           *         "message": "Version 2 is archived and takes no new revisions",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_pull: {
    parameters: {
      query?: {
        /** @description A revision tag of this version; omit for the version's current revision */
        version_tag?: string;
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BundleResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Traffic_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TrafficResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Traffic_put: {
    parameters: {
      query?: {
        /** @description Publish (or split traffic) even when the agent requires a passing evaluation and this revision has none; audited as forced */
        force?: boolean;
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateTrafficDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TrafficResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The agent requires a passing evaluation and a non-live arm has none (`evaluation_required`; `?force=true` splits anyway) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "evaluation_required",
           *         "message": "The agent requires a passing evaluation before v2.1 serves end users; run one, or pass force=true",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is not valid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "splits",
           *             "message": "the percents must sum to 100 (they sum to 95)"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Traffic_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The split is ended */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at' | 'updated_at' | 'name';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Case-insensitive substring of the name */
        'filters[name]'?: string;
      };
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['AgentResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateAgentDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateAgentDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ToolSigning_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ToolSigningSecretDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_listPublishableKeys: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['PublishableKeyResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_createPublishableKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreatePublishableKeyDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedPublishableKeyResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_revokePublishableKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's keys (from the list or the create response) */
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_listApiKeys: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['AgentApiKeyResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_createApiKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedAgentApiKeyResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's keys (from the list or the create response) */
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  AgentSecrets_put: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Secret name: a letter, then letters, digits and underscores (case-sensitive); header values name it as {{secret:NAME}} */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PutAgentSecretDto'];
      };
    };
    responses: {
      /** @description Stored */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  AgentSecrets_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Secret name: a letter, then letters, digits and underscores (case-sensitive); header values name it as {{secret:NAME}} */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Secret not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  AgentSecrets_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'name' | 'created_at' | 'updated_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['AgentSecretResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_send: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendMessageDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SendMessageResponseDto'];
        };
      };
      /** @description The thread is not under agent control: recorded for the operator */
      202: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HeldMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description `no_active_version`: the agent has no live version; `not_found`: the thread is not one of this agent */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "no_active_version",
           *         "message": "The agent has no published version; publish one to let it answer",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "user_id",
           *             "message": "user_id must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "upstream_unavailable",
           *         "message": "The model provider could not be reached",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency did not answer in time (`upstream_timeout`) */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "upstream_timeout",
           *         "message": "The model provider did not answer in time",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_rerun: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A thread of the token's agent (`thread_id` of an earlier reply) */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RerunDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SendMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code); `idempotency_key_in_progress`: the first request with this Idempotency-Key is still running (see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "handoff_conflict",
           *         "message": "The thread is under human control: nothing is rerun",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "upstream_unavailable",
           *         "message": "The model provider could not be reached",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency did not answer in time (`upstream_timeout`) */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "upstream_timeout",
           *         "message": "The model provider did not answer in time",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_welcome: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WelcomeMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description `no_active_version`: the agent has no live version; `not_found`: the thread is not one of this agent */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "no_active_version",
           *         "message": "The agent has no published version; publish one to let it answer",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_welcomePlural: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WelcomeMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description `no_active_version`: the agent has no live version; `not_found`: the thread is not one of this agent */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "no_active_version",
           *         "message": "The agent has no published version; publish one to let it answer",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_followupSuggestions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['FollowupSuggestionsRequestDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FollowupSuggestionsResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description `no_active_version`: the agent has no live version; `not_found`: the thread is not one of this agent */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "no_active_version",
           *         "message": "The agent has no published version; publish one to let it answer",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  McpServer_post: {
    parameters: {
      query?: never;
      header?: {
        /** @description The protocol version the client negotiated at initialize (a date; an unsupported one is 400) */
        'MCP-Protocol-Version'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['McpMessageDto'];
      };
    };
    responses: {
      /** @description The JSON-RPC response */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpResponseDto'];
        };
      };
      /** @description A notification or a response: accepted, no body */
      202: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Stream_stream: {
    parameters: {
      query?: never;
      header?: {
        /** @description Resume after this event id (`<interaction_id>:<seq>`) */
        'Last-Event-ID'?: string;
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendMessageDto'];
      };
    };
    responses: {
      /** @description Server-Sent Events, each with `id: <interaction_id>:<seq>`, in this order: `thread` ([payload](#/components/schemas/StreamThreadEventDto)) → `step` ([payload](#/components/schemas/StreamStepEventDto), agent mode only, repeated) → `delta` ([payload](#/components/schemas/StreamDeltaEventDto), repeated) → `card` ([payload](#/components/schemas/StreamCardEventDto), optional, repeated) → `message` ([payload](#/components/schemas/StreamMessageEventDto)) → `suggestions` ([payload](#/components/schemas/StreamSuggestionsEventDto)) → `done` (`{}`). While the thread waits for or is held by an operator (docs/handoff.md): `thread` → `control` ([payload](#/components/schemas/StreamControlEventDto)) → `done`; a turn that hands the thread over sends `control` before `done`. A failure after the first event is an `error` event ([payload](#/components/schemas/StreamErrorEventDto)) and the stream ends. A `: ping` comment line keeps idle streams open. Concatenated deltas equal `message.text`. */
      200: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example id: 6740a1b2c3d4e5f601234567:1
           *     event: thread
           *     data: {"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567"}
           *
           *     id: 6740a1b2c3d4e5f601234567:2
           *     event: delta
           *     data: {"text":"Here are "}
           *
           *     id: 6740a1b2c3d4e5f601234567:3
           *     event: delta
           *     data: {"text":"two picks."}
           *
           *     id: 6740a1b2c3d4e5f601234567:4
           *     event: message
           *     data: {"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567","message":{"text":"Here are two picks.","cards":[]}}
           *
           *     id: 6740a1b2c3d4e5f601234567:5
           *     event: suggestions
           *     data: {"thread_id":"6740a1b2c3d4e5f601234560","interaction_id":"6740a1b2c3d4e5f601234567","followup_suggestions":["Any in size 42?"]}
           *
           *     id: 6740a1b2c3d4e5f601234567:6
           *     event: done
           *     data: {}
           */
          'text/event-stream': string;
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description `no_active_version`: the agent has no live version; `not_found`: the thread is not one of this agent */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "no_active_version",
           *         "message": "The agent has no published version; publish one to let it answer",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "user_id",
           *             "message": "user_id must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "upstream_unavailable",
           *         "message": "The model provider could not be reached",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Events_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateEventDto'];
      };
    };
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventAcceptedDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The agent was deleted (`not_found`), has no published version (`webhooks.no_active_version`), or its active version must be republished (`webhooks.no_runtime_version`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "webhooks.no_active_version",
           *         "message": "The agent has no published version; publish one to let it answer",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`webhooks.payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "webhooks.payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "text",
           *             "message": "text must be a string"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "upstream_unavailable",
           *         "message": "The event could not be queued: the event store is unreachable; retry with backoff",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Ingestion is shedding load or shutting down (`internal_error`, see Retry-After); the event was not queued */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "Event ingestion is overloaded; retry after 5 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Events_status: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The `event_id` answered by POST /messaging/v1/events */
        eventId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventStatusDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Event not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Senders_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at' | 'phone_number';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['SenderResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Senders_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateSenderDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SenderResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "sender_exists",
           *         "message": "+15550100000 is already a whatsapp sender of this organization",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Senders_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a connected sender number */
        senderId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Sender not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ChannelThreads_start: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description whatsapp or sms; unknown channels answer 404 not_found */
        channel: 'whatsapp' | 'sms';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['StartChannelThreadDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChannelThreadResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ChannelThreads_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The channel the conversation was started on */
        channel: 'whatsapp' | 'sms';
        /** @description A thread this agent started on the channel (`thread_id` of the start response) */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChannelThreadResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ChannelWebhooks_receive: {
    parameters: {
      query?: never;
      header: {
        /** @description base64 HMAC-SHA1 of the public URL + sorted parameters, keyed by the provider auth token */
        'X-Twilio-Signature': string;
      };
      path: {
        /** @description The channel of the webhook URL configured at the provider */
        channel: 'whatsapp' | 'sms';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['InboundChannelMessageDto'];
      };
    };
    responses: {
      /** @description Empty TwiML: the reply is sent later through the Messages API */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/xml': string;
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ChannelWebhooks_status: {
    parameters: {
      query?: never;
      header: {
        /** @description base64 HMAC-SHA1 of the public URL + sorted parameters, keyed by the provider auth token */
        'X-Twilio-Signature': string;
      };
      path: {
        /** @description The channel of the webhook URL configured at the provider */
        channel: 'whatsapp' | 'sms';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['ProviderStatusCallbackDto'];
      };
    };
    responses: {
      /** @description Empty TwiML: the reply is sent later through the Messages API */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/xml': string;
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Threads of this project */
        project_id?: string;
        /** @description Threads of this end user (the `user_id` of the sends) */
        user_id?: string;
        /** @description The caller's own conversation id (events webhook `thread_id`, channel conversations) */
        external_id?: string;
        /** @description Repeatable, RFC 3339. One value: created at or after it. Two values: the inclusive range [start, end]. */
        created?: string[];
        /** @description Repeatable: threads where one of these tools (capability codes) was activated */
        tool?: string[];
        /** @description Repeatable: `code` (the rule was evaluated), `code:fired` (it triggered), `code:blocked` (it triggered a block), `code:passed` (evaluated, not triggered) */
        rule?: string[];
        /** @description Repeatable: `key:value` (equal; numbers and booleans match their JSON value too), `key:*` (present), or `key>=n`, `key>n`, `key<=n`, `key<n` (numeric comparison) */
        param?: string[];
        /** @description Repeatable: threads whose latest turn was answered by this revision tag (`vN.R`) — with a traffic split, the arm the thread is on */
        version_tag?: string[];
        /** @description Repeatable: threads of these agents (24 hex) */
        agent_id?: string[];
        /** @description `1` (default): runtime-v1 threads. Any other version (`2`, `2.1.0`): runtime-v2 threads, which requires `agent_id` or `user_id`. */
        runtime_version?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['ThreadItemDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_eraseUser: {
    parameters: {
      query: {
        /** @description The end user (the `user_id` of the sends); required */
        user_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserErasureResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_get: {
    parameters: {
      query?: {
        /** @description `1` (default): threads of agents on the v1 runtime. Any other version (`2`, a dotted build such as `2.1.0`): runtime-v2 threads. */
        runtime_version?: string;
      };
      header?: never;
      path: {
        /** @description Id of a thread of your organization */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ThreadDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_erase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a thread of your organization */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_rename: {
    parameters: {
      query?: {
        /** @description `1` (default): threads of agents on the v1 runtime. Any other version (`2`, a dotted build such as `2.1.0`): runtime-v2 threads. */
        runtime_version?: string;
      };
      header?: never;
      path: {
        /** @description Id of a thread of your organization */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RenameThreadDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ThreadDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_messages: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Runtime selector, as on the thread list */
        runtime_version?: string;
      };
      header?: never;
      path: {
        /** @description Id of a thread of your organization */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['ThreadMessageDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Operators_message: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A thread id */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['OperatorMessageDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OperatorMessageResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "handoff_conflict",
           *         "message": "Cannot write to this thread: another operator holds it",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Traces_ofThread: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Only traces of this agent: a thread of another agent is 404 `not_found` */
        agent_id?: string;
      };
      header?: never;
      path: {
        /** @description Id of a thread of your organization */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: (components['schemas']['V1TraceRecordDto'] | components['schemas']['V2TraceRecordDto'])[];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Traces_ofInteraction: {
    parameters: {
      query?: {
        /** @description Only traces of this agent: a thread of another agent is 404 `not_found` */
        agent_id?: string;
        /** @description The interaction's thread: required for runtime-v2 interactions (422 without it), omitted for runtime v1. Another thread is 404. */
        thread_id?: string;
      };
      header?: never;
      path: {
        /** @description An `interaction_id` (from a send response or a transcript) */
        interactionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['V1TraceRecordDto'] | components['schemas']['V2TraceRecordDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Usage_ofAgent: {
    parameters: {
      query?: {
        /** @description Interactions created at or after this instant (RFC 3339) */
        created_from?: string;
        /** @description Interactions created at or before this instant (RFC 3339) */
        created_to?: string;
        /** @description version_tag: also break the sums down by the revision tag that answered (`by_version`), e.g. per traffic-split arm */
        group_by?: 'version_tag';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupedUsageDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Usage_ofProject: {
    parameters: {
      query?: {
        /** @description Interactions created at or after this instant (RFC 3339) */
        created_from?: string;
        /** @description Interactions created at or before this instant (RFC 3339) */
        created_to?: string;
        /** @description version_tag: also break the sums down by the revision tag that answered (`by_version`), e.g. per traffic-split arm */
        group_by?: 'version_tag';
      };
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupedUsageDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Knowledge_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeListDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Knowledge_upload: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** @description Markdown (.md, .markdown), HTML (.html, .htm) or plain text (.txt), UTF-8; at most 2097152 bytes each and 10485760 in all */
          files: string[];
          /** @description The revision message (default: the file names) */
          message?: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeUploadResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "version_archived",
           *         "message": "Version 2 is archived and takes no new revisions",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Knowledge_search: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions (`id` of a version item) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['KnowledgeSearchDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeSearchResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "The resource is in a state that forbids this",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Knowledge_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of one of this agent's versions */
        versionId: string;
        /** @description A document id of the bundle’s `knowledge` (percent-encoded in the path) */
        documentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PushResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Document not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "version_archived",
           *         "message": "Version 2 is archived and takes no new revisions",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['WebhookResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Project not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecretResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Project not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "webhook_limit_reached",
           *         "message": "A project may have at most 20 webhook endpoints",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "url resolves to a link-local address, which outbound calls may not reach",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "url",
           *             "message": "url resolves to a link-local address, which outbound calls may not reach"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
        /** @description Id of a webhook endpoint of the project */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Webhook not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
        /** @description Id of a webhook endpoint of the project */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Webhook not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
        /** @description Id of a webhook endpoint of the project */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWebhookDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Webhook not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "url resolves to a link-local address, which outbound calls may not reach",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "url",
           *             "message": "url resolves to a link-local address, which outbound calls may not reach"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_rotateSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
        /** @description Id of a webhook endpoint of the project */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RotateWebhookSecretDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecretResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Webhook not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_listDeliveries: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
        /** @description Id of a webhook endpoint of the project */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['WebhookDeliveryResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Webhook not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Webhooks_redeliver: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of a project of your organization */
        projectId: string;
        /** @description Id of a webhook endpoint of the project */
        webhookId: string;
        /** @description Id of a delivery of the webhook */
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDeliveryResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Delivery not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Audit_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Records of this resource type (`project`, `agent`, `version`, …) */
        resource_type?: string;
        /** @description Records of this resource (its id) */
        resource_id?: string;
        /** @description Records of this actor: a key's id, or a user's id for login sessions */
        actor_id?: string;
        /** @description Records of this action (`<resource>.<verb>`) */
        action?: string;
        /** @description RFC 3339: records made at or after this instant */
        created_from?: string;
        /** @description RFC 3339: records made before this instant */
        created_to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['AuditEventResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Audit_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an audit record of your organization */
        auditEventId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditEventResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Handoff_request: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A thread id */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['HandoffRequestDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ThreadControlDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "handoff_disabled",
           *         "message": "Handoff is not enabled in the agent's live version (bundle `handoff.enabled`)",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Handoff_events: {
    parameters: {
      query?: never;
      header?: {
        /** @description Resume after this event id (`<ms>-<n>`, as the stream wrote it) */
        'Last-Event-ID'?: string;
      };
      path: {
        /** @description A thread id */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event stream */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Operators_takeover: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A thread id */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['HandoffRequestDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ThreadControlDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "handoff_conflict",
           *         "message": "Cannot take over this thread: another operator holds it",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Operators_accept: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A thread id */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ThreadControlDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "handoff_conflict",
           *         "message": "Cannot accept this thread: another operator holds it",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Operators_release: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A thread id */
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ThreadControlDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Thread not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "handoff_conflict",
           *         "message": "Cannot release this thread: another operator holds it",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Inbox_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'requested_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Only threads waiting for an operator, or only held ones */
        control?: 'pending' | 'human';
        /** @description `me`: only the threads the calling operator holds (login sessions only) */
        assignee?: 'me';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['InboxItemDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Inbox_stream: {
    parameters: {
      query?: never;
      header?: {
        /** @description Resume after this event id (`<ms>-<n>`, as the stream wrote it) */
        'Last-Event-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event stream */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['TestCaseResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTestCaseDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_import: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TestCaseSetDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseListDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_export: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseSetDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_fromThread: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TestCaseFromThreadDto'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of a test case of that agent */
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of a test case of that agent */
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  TestCases_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of a test case of that agent */
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateTestCaseDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Evaluations_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of a version of that agent */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['EvaluationResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Evaluations_start: {
    parameters: {
      query?: never;
      header?: {
        /** @description A key of your choosing (a UUID is best), unique per request, 1–255 visible ASCII characters; the quoted Structured Field form (`"…"`) is accepted too. A repeat with the same key and the same request within 24 h changes nothing and gets the first response again, with `Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`; a repeat while the first request still runs is 409 `idempotency_key_in_progress` (see Retry-After). Only successful (2xx) responses are kept: after a failure the key may be used again. Scoped to the credential and the route. See docs/idempotency.md. In Swagger UI (/docs) leave it empty: each Execute then sends a fresh one. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of a version of that agent */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          /** @description `true` when this is the stored first response to the same Idempotency-Key, replayed; absent otherwise */
          'Idempotent-Replayed'?: 'true';
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EvaluationAcceptedDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running (`idempotency_key_in_progress`, see Retry-After) */
      409: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_in_progress",
           *         "message": "The first request with this Idempotency-Key is still running; retry after it finishes to get its response",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field; `idempotency_key_reused`: the Idempotency-Key was used before with another request */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Evaluations_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
        /** @description Id of a version of that agent */
        versionId: string;
        /** @description Id of an evaluation of that version */
        evaluationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EvaluationResponseDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  FeedbackMessaging_rate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The `message.id` of an agent reply */
        messageId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['FeedbackDto'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FeedbackResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "bad_request",
           *         "message": "This session token is not scoped to an agent; request one with agent_id",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "This origin is not allowed for the publishable key",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Message not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "The request body exceeds 1048576 bytes",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "Content-Type text/plain is not supported; send application/json",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  FeedbackManagement_list: {
    parameters: {
      query?: {
        /** @description Items per page */
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        /** @description Field to sort by */
        sort_by?: 'created_at';
        /** @description Sort direction */
        sort_order?: 'asc' | 'desc';
        /** @description Only this rating */
        rating?: 'up' | 'down';
        /** @description Only messages written by this revision */
        version_tag?: string;
        /** @description Only this thread */
        thread_id?: string;
        /** @description Only this end user */
        user_id?: string;
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['FeedbackResponseDto'][];
            meta: components['schemas']['PageMetaDto'];
            links: components['schemas']['PageLinksDto'];
          };
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Analytics_report: {
    parameters: {
      query?: {
        /** @description From the UTC day of this instant (RFC 3339) */
        created_from?: string;
        /** @description To the UTC day of this instant, inclusive */
        created_to?: string;
        /** @description version_tag: per revision; arm: per version (a traffic-split arm, all its revisions); day: per UTC day */
        group_by?: 'version_tag' | 'arm' | 'day';
      };
      header?: never;
      path: {
        /** @description Id of an agent of your organization */
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AnalyticsDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "Missing or invalid credentials",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "Agent not found",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_error",
           *         "message": "The request is invalid",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
           *         "details": [
           *           {
           *             "field": "name",
           *             "message": "name must be longer than or equal to 1 characters"
           *           }
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimit-Policy'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "Rate limit reached; retry after 12 seconds",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "An unexpected error occurred",
           *         "request_id": "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  webhook_turn_completed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TurnCompletedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_event_completed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EventCompletedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_event_failed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EventFailedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_thread_created: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ThreadCreatedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_version_published: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VersionPublishedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_channel_message_status: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChannelMessageStatusWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_thread_handoff_requested: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ThreadHandoffRequestedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_thread_handoff_accepted: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ThreadHandoffAcceptedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_thread_handoff_released: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ThreadHandoffReleasedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_thread_message_created: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ThreadMessageCreatedWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_message_feedback: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MessageFeedbackWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within WEBHOOKS_TIMEOUT_MS counts as delivered; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
