/** What the embedding page says in the `<script>` tag (docs/widget.md). */
export type Theme = 'light' | 'dark' | 'auto';

export interface WidgetConfig {
  /** The service's URL, base path included: where widget.js was loaded from, without `/widget.js`. */
  baseUrl: string;
  publishableKey: string;
  /** The page's id of a signed-in visitor; otherwise the widget makes one per browser tab. */
  userId?: string;
  theme: Theme;
  /** Open the chat when the page loads. */
  open: boolean;
  title: string;
}

const THEMES: readonly string[] = ['light', 'dark', 'auto'];
const USER_ID_MAX = 255;
const TITLE_MAX = 60;

/** The configuration of one `<script src=".../widget.js" data-publishable-key="pk_…">`, or why it cannot run. */
export function readConfig(script: HTMLScriptElement): WidgetConfig | string {
  const key = script.dataset.publishableKey?.trim();
  if (!key) return 'data-publishable-key is missing on the widget script tag';
  const src = new URL(script.src, location.href);
  const userId = script.dataset.userId?.trim();
  const theme = script.dataset.theme ?? 'auto';
  const open = script.dataset.open;
  return {
    baseUrl: src.origin + src.pathname.replace(/\/widget\.js$/, ''),
    publishableKey: key,
    userId: userId && userId.length <= USER_ID_MAX ? userId : undefined,
    theme: THEMES.includes(theme) ? (theme as Theme) : 'auto',
    open: open !== undefined && open !== 'false',
    title: script.dataset.title?.trim().slice(0, TITLE_MAX) || 'Chat',
  };
}
