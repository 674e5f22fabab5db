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
    /** Exchange a publishable key (or a login) for an access token */
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
    /** Liveness: the process is up */
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
    /** Readiness: PostgreSQL and Redis are reachable */
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
    /** List the organization's projects */
    get: operations['Projects_list'];
    put?: never;
    /** Create a project */
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
    /** Get a project */
    get: operations['Projects_get'];
    put?: never;
    post?: never;
    /** Delete a project and its agents: it leaves listings, and their keys and tokens are refused, at once */
    delete: operations['Projects_delete'];
    options?: never;
    head?: never;
    patch?: never;
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
     * @description See docs/bundle.md for the fields and examples.
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
    /** Templates a new version can start from (source "template") */
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
    /** A template with its bundle */
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
    /** List the agent's versions newest first; revisions are items unless filters[exclude_revisions]=true */
    get: operations['Versions_list'];
    put?: never;
    /**
     * Create a draft version: empty, from a template, or a clone of another version
     * @description Its starting content is revision vN.0.
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
    /** Get a version */
    get: operations['Versions_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Update a version's label, tags and notes (null clears) */
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
     * @description 409 `version_archived` for an archived version.
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
     * @description 409 `version_is_live` for the live version: publish another one first.
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
    /** Download the version's bundle: the current revision, or the one tagged version_tag */
    get: operations['Versions_pull'];
    put?: never;
    post?: never;
    delete?: never;
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
    /** List the project's agents, optionally filtered by name */
    get: operations['Agents_list'];
    put?: never;
    /** Create an agent (no live version until a publish) */
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
    /** Get an agent, including which version is live */
    get: operations['Agents_get'];
    put?: never;
    post?: never;
    /** Delete an agent with all its versions and keys; its threads and usage history stay */
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
  '/management/v1/agents/{agentId}/publishable-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the agent's active publishable keys (never the key itself) */
    get: operations['Keys_listPublishableKeys'];
    put?: never;
    /** Create a publishable key (for client code); the key is shown only in this response */
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
    /** Revoke a publishable key: no more exchanges, and its tokens are refused at once */
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
    /** List the agent's active API keys (never the key itself) */
    get: operations['Keys_listApiKeys'];
    put?: never;
    /** Create an agent API key (events webhook); the key is shown only in this response */
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
    /** Revoke an agent API key (refused at once) */
    delete: operations['Keys_revokeApiKey'];
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
    /** Send an end-user message and get the reply (new thread when thread_id is absent) */
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
    /** Answer the thread's last end-user message again with the current live version */
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
    /** The live version's greeting, for opening a conversation UI before the first message */
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
    /** Same as GET /messaging/v1/welcome-message (earlier plural path) */
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
    /** Suggested next prompts from a thread and/or a text given by the caller */
    post: operations['Messaging_followupSuggestions'];
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
    /** Queue an event that triggers the agent asynchronously; 202 once the event is stored durably */
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
    /** An event's processing status (events of this key's agent only) */
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
    /** List the organization's sender numbers */
    get: operations['Senders_list'];
    put?: never;
    /** Connect a sender number for a channel (WhatsApp or SMS) */
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
    /** Remove a sender number; conversations it started keep their number */
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
    /** A channel conversation started by this agent, with the current status of its opening message */
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
    /** Provider webhook: delivery status of an outbound message (sent, delivered, undelivered, failed) */
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
    delete?: never;
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
    delete?: never;
    options?: never;
    head?: never;
    /** Rename a thread; returns the full updated thread */
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
    post?: never;
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
     * @description Interactions created in [created_from, created_to], both optional and inclusive.
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
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    TokenRequestDto: {
      /**
       * @example publishable_key
       * @enum {string}
       */
      grant_type: 'publishable_key' | 'password';
      /**
       * @description With grant_type=publishable_key
       * @example pk_Zm9vYmFy…
       */
      publishable_key?: string;
      /** @description With grant_type=password: the user email */
      username?: string;
      /** @description With grant_type=password */
      password?: string;
      /** @description With grant_type=password: scope the session to this agent so it serves messaging too */
      agent_id?: string;
    };
    TokenResponseDto: {
      access_token: string;
      /** @enum {string} */
      token_type: 'Bearer';
      /** @description Seconds until the token expires; exchange again after that */
      expires_in: number;
      /** @description The agent the token acts as; null for an unscoped login session */
      agent_id: string | null;
      organization_id: string;
    };
    OAuthErrorDto: {
      /**
       * @example invalid_grant
       * @enum {string}
       */
      error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type' | 'rate_limited' | 'server_error';
      /** @example invalid_publishable_key */
      error_description: string;
    };
    ErrorDetailDto: {
      /** @example name */
      field: string;
      /** @example name must be longer than or equal to 2 characters */
      message: string;
    };
    ErrorBodyDto: {
      /**
       * @description Stable code to branch on; keep a default branch, the set may grow
       * @example not_found
       */
      code: string;
      /** @example Project not found */
      message: string;
      /**
       * @description Equals the x-request-id response header
       * @example a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d
       */
      request_id: string;
      details?: components['schemas']['ErrorDetailDto'][];
    };
    ErrorEnvelopeDto: {
      error: components['schemas']['ErrorBodyDto'];
    };
    HealthDto: {
      /** @example ok */
      status: string;
    };
    ReadinessDto: {
      /** @example ok */
      status: string;
      /**
       * @example {
       *       "database": "ok",
       *       "redis": "ok"
       *     }
       */
      checks: Record<string, never>;
    };
    CreateProjectDto: {
      /** @example Storefront */
      name: string;
    };
    ProjectResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
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
    TemplateResponseDto: {
      /**
       * @description Pass as `template` when creating a version with source "template"
       * @example shopping-assistant
       */
      id: string;
      /** @example Shopping assistant */
      name: string;
      description: string;
      /**
       * @description The runtime the template is written for
       * @enum {string}
       */
      runtime: 'v1' | 'v2';
    };
    TemplateListResponseDto: {
      results: components['schemas']['TemplateResponseDto'][];
    };
    TemplateDetailResponseDto: {
      /**
       * @description Pass as `template` when creating a version with source "template"
       * @example shopping-assistant
       */
      id: string;
      /** @example Shopping assistant */
      name: string;
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
      /** @example Holiday campaign */
      label?: string | null;
      /**
       * @description Each 1..50 characters; duplicates are dropped
       * @example [
       *       "holiday",
       *       "experiment-b"
       *     ]
       */
      tags?: string[];
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
      /** @example 6740a1b2c3d4e5f601234567 */
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
      /** @enum {string} */
      status: 'draft' | 'published' | 'archived';
      /** @description Base version: it is the agent's live version. Revision: it is the live revision */
      is_live: boolean;
      is_revision: boolean;
      /** @description For a revision item: the id of its version; null for a base version */
      base_version_id: string | null;
      label: string | null;
      tags: string[];
      notes: string | null;
      /**
       * @description Digest of the bundle
       * @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
       */
      digest: string;
      /** @description A revision's push message; null for a base version */
      message: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    UpdateVersionDto: {
      /** @example Holiday campaign */
      label?: string | null;
      /**
       * @description Each 1..50 characters; duplicates are dropped
       * @example [
       *       "holiday",
       *       "experiment-b"
       *     ]
       */
      tags?: string[];
      notes?: string | null;
    };
    PushBundleDto: {
      /** @description The configuration bundle; must match GET /management/v1/bundle-schema */
      bundle: {
        [key: string]: unknown;
      };
      /** @example Add winter jackets to the catalog */
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
      /** @example v3.2 */
      version_tag: string;
      /** @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 */
      digest: string;
      /** Format: date-time */
      created_at: string;
    };
    BundleResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      agent_id: string;
      /** @example 6740a1b2c3d4e5f601234567 */
      version_id: string;
      /** @example v3.2 */
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
      /** @enum {string} */
      return_type: 'bundle';
    };
    CreateAgentDto: {
      /** @example Store assistant */
      name: string;
      description?: string | null;
      /**
       * @description v1: decisioning engine; v2: grounded engine
       * @default v1
       * @enum {string}
       */
      runtime?: 'v1' | 'v2';
    };
    AgentResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @example 6740a1b2c3d4e5f601234567 */
      project_id: string;
      /** @example Store assistant */
      name: string;
      description: string | null;
      /** @enum {string} */
      runtime: 'v1' | 'v2';
      /** @description The live version; null until a publish */
      live_version_id: string | null;
      /**
       * @description The live revision tag; null until a publish
       * @example v3.2
       */
      live_version_tag: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    UpdateAgentDto: {
      name?: string;
      /** @description null clears it */
      description?: string | null;
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
       * @description CIDR ranges (IPv4 or IPv6) allowed to exchange the key; a bare address means that address only; empty = any
       * @example [
       *       "203.0.113.0/24",
       *       "2001:db8::/32"
       *     ]
       */
      allowed_ip_ranges?: string[];
    };
    CreatedPublishableKeyResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /**
       * @description The first characters of the key, to tell keys apart
       * @example pk_Zm9vYmFy
       */
      key_prefix: string;
      allowed_origins: string[];
      allowed_ip_ranges: string[];
      /** Format: date-time */
      created_at: string;
      /**
       * @description The key itself: shown only in this response
       * @example pk_Zm9vYmFyYmF6…
       */
      publishable_key: string;
    };
    PublishableKeyResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /**
       * @description The first characters of the key, to tell keys apart
       * @example pk_Zm9vYmFy
       */
      key_prefix: string;
      allowed_origins: string[];
      allowed_ip_ranges: string[];
      /** Format: date-time */
      created_at: string;
    };
    CreatedAgentApiKeyResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @example agk_Zm9vYmFy */
      key_prefix: string;
      /** Format: date-time */
      created_at: string;
      /**
       * @description The key itself: shown only in this response
       * @example agk_Zm9vYmFyYmF6…
       */
      api_key: string;
    };
    AgentApiKeyResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @example agk_Zm9vYmFy */
      key_prefix: string;
      /** Format: date-time */
      created_at: string;
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
    V1DecisionDto: {
      /**
       * @description A tool call or a rule evaluation
       * @enum {string}
       */
      type: 'tool_call' | 'rule';
      /** @description Tool code (tool calls); empty for rules */
      tool: string;
      /** @description Parent tool of a nested call; always empty in this engine */
      parent_tool: string;
      /**
       * @description `t<n>` for the n-th tool, `r<n>` for the n-th rule
       * @example t1
       */
      track_id: string;
      /**
       * @description Tool calls: completed, no_results or skipped; rules: triggered or not_triggered
       * @enum {string}
       */
      status: 'completed' | 'no_results' | 'skipped' | 'triggered' | 'not_triggered';
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
      /** @description Tool calls: a summary of the results; rules: the rule's message when it fired */
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
      /** @description Tool calls: `results`, `empty` or `skipped`; rules: the action taken, or `none` */
      matched_branch: string;
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
      /** @description `guardrails`, `citations_map_to_passages` or `answer_is_grounded` */
      name: string;
      /** @description Whether the check passed */
      passed: boolean;
      /** @description What was checked and found */
      detail: string;
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
      /** @description What happened, in plain language */
      narrative: string;
    };
    ParticipantDto: {
      id: string;
      /** @enum {string} */
      type: 'agent' | 'user';
    };
    SubEntityDto: {
      /** @example variants */
      name: string;
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
      is_recommended: boolean;
      index: number;
      json_data: components['schemas']['CardJsonDataDto'];
      /** @description The agent capability (tool code) that produced the card */
      capability?: string;
      /** @description The record the card is about */
      instance?: string;
      title?: string;
    };
    MessageDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** Format: date-time */
      created_at: string;
      text: string;
      sender: components['schemas']['ParticipantDto'];
      receiver: components['schemas']['ParticipantDto'];
      cards: components['schemas']['CardResponseDto'][];
      /** @description The live version's greeting */
      welcome_message: string;
      /** @description Ready-made follow-up prompts */
      followup_suggestions: string[];
      /** @description Link to the most relevant source of the reply (top card or first citation); empty when none */
      url: string;
      /** @default 0 */
      input_tokens: number;
      /** @default 0 */
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
      message: components['schemas']['MessageDto'];
    };
    RerunDto: {
      /**
       * @description Include the reasoning trace as message.trace_info
       * @default false
       */
      include_trace?: boolean;
    };
    WelcomeMessageResponseDto: {
      welcome_message: string;
      followup_suggestions: string[];
    };
    FollowupSuggestionsRequestDto: {
      /** @description Suggest from this thread’s conversation */
      thread_id?: string;
      /** @description Suggest from this text (e.g. what the user is looking at) */
      text?: string;
      /** @default 3 */
      limit?: number;
    };
    FollowupSuggestionsResponseDto: {
      followup_suggestions: string[];
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
    StreamDeltaEventDto: {
      /** @example Here are */
      text: string;
    };
    StreamCardEventDto: {
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
      message: components['schemas']['MessageDto'];
    };
    StreamSuggestionsEventDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      thread_id: string;
      /** @example 6740a1b2c3d4e5f601234567 */
      interaction_id: string;
      /**
       * @example [
       *       "Any in size 42?"
       *     ]
       */
      followup_suggestions: string[];
    };
    StreamErrorEventDto: {
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
      /** @example 6740a1b2c3d4e5f601234567 */
      event_id: string;
      /** @enum {string} */
      status: 'queued' | 'processing' | 'completed' | 'failed';
      /** @description Our thread the event ran on; null until processed */
      thread_id: string | null;
      /** @description The caller’s thread_id (the thread’s external_id); null when none was given */
      external_thread_id: string | null;
      /** @description Processing attempts so far */
      attempts: number;
      /** @description Why the last attempt failed (present on failed events and on queued events awaiting a retry) */
      error?: string;
      /** Format: date-time */
      created_at: string;
      /**
       * Format: date-time
       * @description When the event completed or failed
       */
      completed_at?: string;
    };
    CreateSenderDto: {
      /**
       * @example whatsapp
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms';
      /**
       * @description The connected number, E.164
       * @example +15550100000
       */
      phone_number: string;
      /** @example Trail Shop support */
      display_name?: string;
    };
    SenderResponseDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @enum {string} */
      channel: 'whatsapp' | 'sms';
      /** @example +15550100000 */
      phone_number: string;
      display_name: string | null;
      /** Format: date-time */
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
      /** @enum {string} */
      channel: 'whatsapp' | 'sms';
      /**
       * @description The recipient
       * @example +15550123456
       */
      phone_number: string;
      /** @example user-42 */
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
      /** @example Do you have trail shoes? */
      Body: string;
    };
    ProviderStatusCallbackDto: {
      /** @example SM0123456789abcdef0123456789abcdef */
      MessageSid: string;
      /** @enum {string} */
      MessageStatus: 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'undelivered' | 'failed';
      /** @example 30003 */
      ErrorCode?: string;
    };
    ThreadItemDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @description The first message, shortened; renamable */
      title: string;
      /** Format: date-time */
      created_at: string;
      /**
       * @description The agent version the conversation (last) ran on
       * @example v3.2
       */
      version_tag: string;
      /** @example 6740a1b2c3d4e5f601234567 */
      agent_id: string;
      /** @description End-user id */
      user_id: string;
      /** @description The caller's own conversation id, when one was given */
      external_id: string | null;
    };
    ThreadDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @description The first message, shortened; renamable */
      title: string;
      /** Format: date-time */
      created_at: string;
      /**
       * @description The agent version the conversation (last) ran on
       * @example v3.2
       */
      version_tag: string;
      /** @example 6740a1b2c3d4e5f601234567 */
      agent_id: string;
      /** @description End-user id */
      user_id: string;
      /** @description The caller's own conversation id, when one was given */
      external_id: string | null;
      /** @example 6740a1b2c3d4e5f601234567 */
      project_id: string;
      /** @enum {string} */
      runtime: 'v1' | 'v2';
      /** @description Turns in the thread */
      interaction_count: number;
      /** Format: date-time */
      last_interaction_at: string | null;
      /** Format: date-time */
      updated_at: string;
      /** @description Tools (capabilities) activated in the thread */
      tools: string[];
      /** @description Rule outcomes: `code`, `code:fired`, `code:blocked`, `code:passed` */
      rules: string[];
      /** @description Parameters computed in the thread (latest value per key) */
      params: {
        [key: string]: unknown;
      };
    };
    RenameThreadDto: {
      /** @example Trail shoes under $100 */
      title: string;
    };
    ThreadMessageDto: {
      /** @example 6740a1b2c3d4e5f601234567 */
      id: string;
      /** @enum {string} */
      role: 'user' | 'agent';
      /** @description Message text; empty for an image-only user message */
      text: string;
      /** Format: date-time */
      created_at: string;
      /**
       * @description The interaction (turn) this message belongs to
       * @example 6740a1b2c3d4e5f601234567
       */
      interaction_id: string;
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
      /** @description What happened, in plain language */
      narrative: string;
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
       * Format: date-time
       * @description When the interaction was recorded
       */
      created_at: string;
    };
    UsageDto: {
      /** @description Billed interactions, one per interaction */
      interaction_count: number;
      input_tokens: number;
      output_tokens: number;
      /** @description Cached (read) input tokens */
      cache_read_tokens: number;
      reasoning_tokens: number;
      /** @description input + output + cache-read + reasoning tokens */
      total_tokens: number;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenResponseDto'];
        };
      };
      /** @description OAuth 2.0 style failure, e.g. invalid_grant / invalid_publishable_key */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthErrorDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthDto'];
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReadinessDto'];
        };
      };
      /** @description Temporarily unavailable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_list: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at' | 'updated_at' | 'name';
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Projects_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateProjectDto'];
      };
    };
    responses: {
      201: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        templateId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_list: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at' | 'updated_at' | 'number';
        sort_order?: 'asc' | 'desc';
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
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
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
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_publish: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VersionResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Versions_push: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PushResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BundleResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_list: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at' | 'updated_at' | 'name';
        sort_order?: 'asc' | 'desc';
        /** @description Case-insensitive substring of the name */
        'filters[name]'?: string;
      };
      header?: never;
      path: {
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Agents_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
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
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_listPublishableKeys: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at';
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_createPublishableKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
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
      201: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_listApiKeys: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at';
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Keys_createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      201: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        agentId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_send: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendMessageDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SendMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency did not answer in time (`upstream_timeout`) */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Messaging_rerun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SendMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency did not answer in time (`upstream_timeout`) */
      504: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WelcomeMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WelcomeMessageResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FollowupSuggestionsResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      /** @description Server-Sent Events, each with `id: <interaction_id>:<seq>`, in this order: `thread` ([payload](#/components/schemas/StreamThreadEventDto)) → `delta` ([payload](#/components/schemas/StreamDeltaEventDto), repeated) → `card` ([payload](#/components/schemas/StreamCardEventDto), optional, repeated) → `message` ([payload](#/components/schemas/StreamMessageEventDto)) → `suggestions` ([payload](#/components/schemas/StreamSuggestionsEventDto)) → `done` (`{}`). A failure after the first event is an `error` event ([payload](#/components/schemas/StreamErrorEventDto)) and the stream ends. A `: ping` comment line keeps idle streams open. Concatenated deltas equal `message.text`. */
      200: {
        headers: {
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
           *     data: {"text":"Here"}
           */
          'text/event-stream': string;
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Events_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateEventDto'];
      };
    };
    responses: {
      202: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The agent was deleted (`not_found`), has no published version (`webhooks.no_active_version`), or its active version must be republished (`webhooks.no_runtime_version`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`webhooks.payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description A dependency could not be reached (`upstream_unavailable`) */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Ingestion is shedding load or shutting down (`internal_error`, see Retry-After); the event was not queued */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        eventId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Senders_list: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at' | 'phone_number';
        sort_order?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      201: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The resource is in a state that forbids this (see the code) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        senderId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        /** @description Unknown channels answer 404 not_found */
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
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChannelThreadResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        channel: string;
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChannelThreadResponseDto'];
        };
      };
      /** @description Bad request (`bad_request`): malformed or missing required context */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ChannelWebhooks_receive: {
    parameters: {
      query?: never;
      header: {
        /** @description base64 HMAC-SHA1 of the public URL + sorted parameters, keyed by the auth token */
        'X-Twilio-Signature': string;
      };
      path: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  ChannelWebhooks_status: {
    parameters: {
      query?: never;
      header: {
        'X-Twilio-Signature': string;
      };
      path: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The credential may not do this (`forbidden`) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_list: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at';
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
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body exceeds 1 MiB (`payload_too_large`) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description The body is not application/json (`unsupported_media_type`) */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Threads_messages: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at';
        sort_order?: 'asc' | 'desc';
        /** @description Runtime selector, as on the thread list */
        runtime_version?: string;
      };
      header?: never;
      path: {
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
  Traces_ofThread: {
    parameters: {
      query?: {
        'page[size]'?: number;
        /** @description Opaque cursor: the page after this one (meta.after_cursor) */
        'page[after]'?: string;
        /** @description Opaque cursor: the page before this one (meta.before_cursor) */
        'page[before]'?: string;
        sort_by?: 'created_at';
        sort_order?: 'asc' | 'desc';
        /** @description Only traces of this agent: a thread of another agent is 404 `not_found` */
        agent_id?: string;
      };
      header?: never;
      path: {
        threadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
        interactionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
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
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsageDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
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
      };
      header?: never;
      path: {
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsageDto'];
        };
      };
      /** @description Missing or invalid credentials (`unauthorized`) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Nothing the caller may see has this id (`not_found`) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Invalid input (`validation_error`); `details[].field` names each field */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Rate limit of this credential reached (`rate_limited`, see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
      /** @description Unexpected error (`internal_error`) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelopeDto'];
        };
      };
    };
  };
}
