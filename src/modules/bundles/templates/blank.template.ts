import type { BundleTemplate } from './template.js';

/** The smallest useful bundle: a greeting and the builtin model. Works on either runtime. */
export const BLANK_TEMPLATE: BundleTemplate = {
  id: 'blank',
  name: 'Blank',
  description: 'A minimal agent: a welcome message and the builtin model, ready to be filled in.',
  runtime: 'v1',
  bundle: {
    schema_version: 1,
    name: 'New agent',
    welcome_message: 'Hi! How can I help you today?',
    welcome_suggestions: [],
    persona: 'You are a helpful, concise assistant.',
    model: { provider: 'builtin' },
    followups: { default: [] },
    guardrails: [],
    intents: [],
  },
};
