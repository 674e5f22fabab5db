import type { KnowledgeDocument } from '../bundle.types.js';
import type { BundleTemplate } from './template.js';

const HELP = 'https://help.lumennotes.example';

/** The help center of "Lumen Notes", a fictional note-taking app: what the grounded engine retrieves and cites. */
const DOCUMENTS: KnowledgeDocument[] = [
  {
    id: 'getting-started',
    title: 'Getting started with Lumen Notes',
    url: `${HELP}/articles/getting-started`,
    text: `Lumen Notes is a note-taking app for web, macOS, Windows, iOS and Android. Create a free account at lumennotes.example with an email address or by signing in with Google or Apple. Your first workspace, called "Personal", is created automatically.

Notes live in notebooks, and notebooks live in workspaces. Press N (or Ctrl+N on Windows, Cmd+N on macOS) to create a note in the current notebook. Notes support headings, checklists, tables, code blocks, images and file attachments up to 25 MB each on the Free plan and 250 MB on paid plans.

To find anything later, use the search bar at the top of the sidebar. Search covers note titles, body text, tags, and the text inside PDFs and images (OCR on paid plans). Tags are added by typing # followed by the tag name anywhere in a note.`,
  },
  {
    id: 'sync-devices',
    title: 'Syncing notes across devices',
    url: `${HELP}/articles/sync`,
    text: `Lumen Notes syncs automatically whenever you are signed in and online. Changes usually appear on your other devices within a few seconds. The sync indicator in the bottom-left corner shows a green dot when everything is up to date and an orange dot while changes are uploading.

The Free plan syncs across two devices. Plus and Team plans sync across unlimited devices. If you sign in on a third device on the Free plan, you will be asked to sign out of one of the others; no notes are lost when you do this.

If a note does not sync, first check that you are signed in to the same account on both devices (Settings → Account). Then open Settings → Sync and choose "Sync now". If two devices edited the same paragraph while offline, Lumen keeps both versions and marks the note with a conflict banner so you can choose which text to keep.`,
  },
  {
    id: 'offline-mode',
    title: 'Working offline',
    url: `${HELP}/articles/offline`,
    text: `The desktop and mobile apps work fully offline. Every note you have opened before is stored on the device, and on Plus and Team plans you can make whole notebooks available offline from the notebook menu ("Keep offline").

Notes you create or edit offline are saved locally and upload the next time the device connects. The web app needs a connection; if it loses one, it keeps your unsaved typing in the browser and retries every few seconds.

Offline copies are encrypted on the device with a key stored in the operating system's keychain. Signing out removes all offline copies from that device.`,
  },
  {
    id: 'sharing-permissions',
    title: 'Sharing notes and notebooks',
    url: `${HELP}/articles/sharing`,
    text: `You can share a single note or a whole notebook. Open the Share menu, enter email addresses, and choose a permission: "Can view", "Can comment" or "Can edit". People without a Lumen account can view shared notes through a link but need a free account to comment or edit.

Public links can be turned on from the Share menu. Anyone with a public link can read the note; on Plus and Team plans you can protect the link with a password and set an expiry date. Turning the public link off invalidates it immediately.

Workspace owners on the Team plan can restrict sharing outside the company domain under Admin → Security → External sharing. When this is on, members can only share with email addresses on approved domains.`,
  },
  {
    id: 'plans-billing',
    title: 'Plans and billing',
    url: `${HELP}/articles/plans`,
    text: `Lumen Notes has three plans. Free includes two synced devices, 60 MB of uploads per month and 25 MB per attachment. Plus costs $6 per month or $60 per year and adds unlimited devices, 10 GB of uploads per month, OCR search, offline notebooks and password-protected links. Team costs $10 per member per month (billed monthly or annually) and adds shared workspaces, admin controls, SSO and priority support.

You can upgrade at any time from Settings → Plan. Upgrades take effect immediately and are prorated for the rest of the billing period. Downgrades take effect at the end of the current period; notes and attachments are never deleted when you downgrade, but uploads over the Free limits are paused.

We accept Visa, Mastercard, American Express and PayPal. Invoices are emailed after each payment and can be downloaded from Settings → Plan → Billing history. To change the card on file, choose "Update payment method" on the same page.`,
  },
  {
    id: 'refunds',
    title: 'Refund policy',
    url: `${HELP}/articles/refunds`,
    text: `If you are not happy with a paid plan, you can request a full refund within 14 days of your first payment for a new subscription. Annual renewals can be refunded within 14 days of the renewal date. Monthly renewals are not refunded, but you can cancel at any time and keep your plan until the end of the month you paid for.

To request a refund, open Settings → Plan → Billing history, choose the payment and select "Request refund", or contact support with the invoice number. Refunds are returned to the original payment method and usually appear within 5 to 10 business days, depending on your bank.

Team plans with more than 50 members are covered by the refund terms in their order form.`,
  },
  {
    id: 'two-factor',
    title: 'Two-factor authentication',
    url: `${HELP}/articles/two-factor`,
    text: `Two-factor authentication (2FA) protects your account with a second step at sign-in. Turn it on in Settings → Account → Security. Lumen supports authenticator apps (such as 1Password, Authy or Google Authenticator) and hardware security keys (FIDO2/WebAuthn). SMS codes are not supported because they can be intercepted.

When you turn on 2FA you receive ten single-use recovery codes. Store them somewhere safe: they are the only way back into your account if you lose your phone or security key. You can generate a new set at any time, which invalidates the old codes.

If you have lost both your second factor and your recovery codes, contact support from the email address on the account. For your security, recovery takes at least 72 hours and requires confirming recent account activity. Team workspace admins can require 2FA for every member under Admin → Security.`,
  },
  {
    id: 'export-data',
    title: 'Exporting your notes',
    url: `${HELP}/articles/export`,
    text: `You can export a single note, a notebook or your whole account. From a note's menu choose Export and pick Markdown, PDF or HTML. To export everything, go to Settings → Account → Export data; you will receive an email with a download link to a ZIP file containing every note as Markdown with attachments in folders.

Account exports are prepared in the background and usually take a few minutes; very large accounts can take up to an hour. The download link is valid for seven days.

Lumen can also import notes from Evernote (.enex), Notion (Markdown & CSV export), Apple Notes (via the macOS app) and plain Markdown folders. Imports keep titles, tags, checklists and attachments; formatting that Lumen does not support is converted to plain text.`,
  },
  {
    id: 'integrations',
    title: 'Integrations: calendar, Slack and email',
    url: `${HELP}/articles/integrations`,
    text: `Connect your Google or Microsoft calendar in Settings → Integrations to create meeting notes in one click. Upcoming events appear in the sidebar; choosing one creates a note titled with the event name, date and attendees.

The Slack integration (Team plan) lets you save any Slack message to a notebook with the "Save to Lumen" message action, and posts a preview when someone pastes a Lumen link in a channel the workspace has access to.

Every account also has a personal email-in address, shown in Settings → Integrations → Email to Lumen. Emails sent there become notes in your Inbox notebook, with attachments included. Add #tag to the subject line to tag the note.`,
  },
  {
    id: 'delete-account',
    title: 'Deleting your account and data retention',
    url: `${HELP}/articles/delete-account`,
    text: `You can delete your account from Settings → Account → Delete account. If you have a paid plan, cancel it first; deletion is blocked while a subscription is active. We recommend exporting your notes before deleting.

After you confirm, your account is deactivated immediately and permanently deleted after 30 days. During those 30 days you can sign in to cancel the deletion. After 30 days all notes, attachments and backups are erased and cannot be recovered.

Deleted notes (not accounts) go to Trash, where they stay for 30 days on Free and 90 days on Plus and Team before being removed automatically. You can empty the Trash at any time to delete notes right away.`,
  },
  {
    id: 'keyboard-shortcuts',
    title: 'Keyboard shortcuts',
    url: `${HELP}/articles/shortcuts`,
    text: `Press ? anywhere in the app to see every shortcut. The most used ones on macOS (use Ctrl instead of Cmd on Windows and Linux): Cmd+N new note, Cmd+K quick switcher to jump to any note, Cmd+Shift+F search everywhere, Cmd+/ toggle the sidebar, Cmd+Shift+C insert a checklist and Cmd+Enter toggle the checkbox under the cursor.

Markdown shortcuts work while typing: # for a heading, - or * for a bullet list, 1. for a numbered list, > for a quote, and three backticks for a code block.

You can change most shortcuts in Settings → Keyboard. Custom shortcuts sync across your devices.`,
  },
];

export const KNOWLEDGE_ASSISTANT_TEMPLATE: BundleTemplate = {
  id: 'knowledge-assistant',
  name: 'Knowledge assistant',
  description:
    'Runtime v2 help-center assistant for a note-taking app: answers from 11 help articles (plans, refunds, sync, sharing, 2FA, export…) and cites the passages it used.',
  runtime: 'v2',
  bundle: {
    schema_version: 1,
    name: 'Knowledge assistant',
    welcome_message:
      "Hi! I'm the Lumen Notes help assistant. Ask me anything about your account, plans, syncing or sharing — I'll answer from our help center and link the articles.",
    welcome_suggestions: ['How do I export all my notes?', 'What does the Plus plan include?', 'I lost my 2FA phone'],
    persona:
      'You are the Lumen Notes support assistant. Answer only from the help-center passages you are given, cite them with [n] markers, and say plainly when the help center does not cover a question, offering to connect the user with support@lumennotes.example.',
    model: { provider: 'builtin', temperature: 0.2, max_output_tokens: 500 },
    intents: [
      {
        name: 'billing',
        examples: ['how much does plus cost', 'change my credit card', 'where are my invoices', 'upgrade to team', 'what plans are there'],
      },
      {
        name: 'refund',
        examples: ['can I get a refund', 'I was charged by mistake', 'refund my annual renewal', 'how long do refunds take'],
      },
      {
        name: 'account_security',
        examples: ['set up two factor', 'lost my phone with authenticator', 'recovery codes', 'require 2fa for my team'],
      },
      {
        name: 'sync_issue',
        examples: ['notes not syncing', 'my phone does not show new notes', 'conflict banner on a note', 'too many devices'],
      },
      { name: 'data_export', examples: ['export all notes', 'download my data', 'import from evernote', 'move from notion'] },
    ],
    guardrails: [
      {
        code: 'credentials',
        patterns: ['\\bmy password is\\b', '\\brecovery code[s]?:?\\s*[a-z0-9]{4,}'],
        message: 'Please never share your password or recovery codes — not even with support. I can help without them.',
      },
      {
        code: 'prompt_injection',
        patterns: ['ignore (?:all |any )?(?:previous|prior|above) instructions', 'reveal (?:your|the) (?:system )?prompt'],
        message: 'I can help with questions about Lumen Notes. What would you like to know?',
      },
    ],
    followups: {
      default: ['How do I get a refund?', 'Show me keyboard shortcuts', 'How does sync work?'],
      intents: {
        billing: ['How do I cancel?', 'What is the refund policy?', 'Compare Plus and Team'],
        refund: ['Where is my invoice?', 'How do I cancel my plan?'],
        account_security: ['How do I generate new recovery codes?', 'Can admins require 2FA?'],
        sync_issue: ['How does offline mode work?', 'How many devices can I use?'],
        data_export: ['Which formats can I export?', 'Can I import from Evernote?'],
      },
    },
    knowledge: DOCUMENTS,
  },
};
