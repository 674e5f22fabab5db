import type { Bundle, HandoffSettings } from './bundle.types.js';

/** What the end user is told when a handoff starts, unless the bundle's `handoff.message` says otherwise. */
export const DEFAULT_HANDOFF_MESSAGE = 'Connecting you to a person…';
/** What the end user is told when a request times out, unless `handoff.timeout_message` says otherwise. */
export const DEFAULT_HANDOFF_TIMEOUT_MESSAGE = 'No one is available right now.';

/** The revision's handoff settings when handoff is enabled, else null. */
export function handoffSettings(bundle: Bundle): HandoffSettings | null {
  return bundle.handoff?.enabled ? bundle.handoff : null;
}
