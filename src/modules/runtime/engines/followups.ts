import type { Bundle } from '../../bundles/bundle.types.js';

/** A reply's follow-up suggestions: the recognised intent's list when the bundle has one, else the default list. */
export function followupsFor(bundle: Bundle, intent: string | null): string[] {
  const byIntent = intent ? bundle.followups?.intents?.[intent] : undefined;
  return [...(byIntent?.length ? byIntent : (bundle.followups?.default ?? []))];
}
