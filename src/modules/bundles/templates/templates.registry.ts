import { BLANK_TEMPLATE } from './blank.template.js';
import { KNOWLEDGE_ASSISTANT_TEMPLATE } from './knowledge-assistant.template.js';
import { SHOPPING_ASSISTANT_TEMPLATE } from './shopping-assistant.template.js';
import type { BundleTemplate } from './template.js';

/** Every template shipped with the service, in listing order. */
export const TEMPLATES: readonly BundleTemplate[] = [BLANK_TEMPLATE, SHOPPING_ASSISTANT_TEMPLATE, KNOWLEDGE_ASSISTANT_TEMPLATE];
