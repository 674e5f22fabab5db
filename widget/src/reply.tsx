/**
 * A reply as the visitor sees it. Every value in it (text, card fields, titles) is untrusted: it only ever becomes
 * text nodes (ESLint forbids HTML injection under widget/), and only http(s) URLs become links.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Card, Turn } from './turns';

const MAX_FIELDS = 4;
const MAX_VARIANTS = 6;
/** Fields shown in a card's heading rather than its field list. */
const HEADLINE = new Set(['id', 'name', 'title', 'price', 'currency', 'url', 'description', 'image', 'image_url']);

export function display(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function SafeLink({ href, label, children }: { href: string; label?: string; children: ComponentChildren }) {
  let url: URL | undefined;
  try {
    url = new URL(href);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return <span>{children}</span>;
  return (
    <a href={url.href} target="_blank" rel="noopener noreferrer" aria-label={label}>
      {children}
    </a>
  );
}

/** The reply text with its `[n]` markers as buttons that show the cited source below. */
export function Reply({ turn }: { turn: Turn }) {
  const [shown, setShown] = useState<number>();
  const byMarker = new Map(turn.citations.map((c) => [c.marker, c]));
  const sourceId = (marker: number) => `t${turn.key}-source-${marker}`;
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of turn.text.matchAll(/\s?\[(\d{1,3})\]/g)) {
    const citation = byMarker.get(Number(match[1]));
    if (!citation) continue;
    parts.push(turn.text.slice(last, match.index));
    parts.push(
      <button
        type="button"
        class="cite"
        aria-label={`Source ${citation.marker}: ${citation.title}`}
        aria-expanded={shown === citation.marker}
        aria-controls={sourceId(citation.marker)}
        onClick={() => setShown(shown === citation.marker ? undefined : citation.marker)}
      >
        {citation.marker}
      </button>,
    );
    last = match.index + match[0].length;
  }
  parts.push(turn.text.slice(last));
  return (
    <>
      {turn.text && <p class="text">{parts}</p>}
      {turn.citations.length > 0 && (
        <div class="sources">
          <p class="sources-title">Sources</p>
          <ol>
            {turn.citations.map((c) => (
              <li key={c.marker} id={sourceId(c.marker)} class={shown === c.marker ? 'shown' : undefined}>
                <span class="marker">{c.marker}</span>
                {c.url ? <SafeLink href={c.url}>{c.title}</SafeLink> : <span>{c.title}</span>}
                {shown === c.marker && <blockquote>{c.text}</blockquote>}
              </li>
            ))}
          </ol>
        </div>
      )}
      {turn.cards.length > 0 && (
        <ul class="cards" aria-label="Results">
          {turn.cards.map((card) => (
            <CardView key={card.index} card={card} />
          ))}
        </ul>
      )}
    </>
  );
}

function CardView({ card }: { card: Card }) {
  const entity = card.json_data.entity;
  const title = card.title ?? display(entity.name ?? entity.title ?? card.instance ?? `Result ${card.index + 1}`);
  const fields = Object.entries(entity)
    .filter(([key]) => !HEADLINE.has(key))
    .slice(0, MAX_FIELDS);
  return (
    <li class={card.is_recommended ? 'card recommended' : 'card'}>
      {card.is_recommended && <span class="badge">Top pick</span>}
      <p class="card-title">{title}</p>
      {entity.price !== undefined && (
        <p class="price">
          {display(entity.price)} {entity.currency !== undefined ? display(entity.currency) : ''}
        </p>
      )}
      {entity.description !== undefined && <p class="description">{display(entity.description)}</p>}
      {fields.length > 0 && (
        <dl>
          {fields.map(([key, value]) => (
            <div key={key}>
              <dt>{key.replace(/_/g, ' ')}</dt>
              <dd>{display(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {card.json_data.sub_entities
        .filter((group) => group.items.length > 0)
        .map((group) => (
          <Variants key={group.name} title={title} name={group.name} items={group.items} />
        ))}
      {typeof entity.url === 'string' && (
        <SafeLink href={entity.url} label={`Open ${title}`}>
          View details
        </SafeLink>
      )}
    </li>
  );
}

function Variants({ title, name, items }: { title: string; name: string; items: Array<Record<string, unknown>> }) {
  const shown = items.slice(0, MAX_VARIANTS);
  const columns = [...new Set(shown.flatMap((item) => Object.keys(item)))];
  return (
    <details class="variants">
      <summary>
        {items.length} {name}
      </summary>
      <div class="table-scroll" tabIndex={0} role="region" aria-label={`${name} of ${title}`}>
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column.replace(/_/g, ' ')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((item, i) => (
              <tr key={i}>
                {columns.map((column) => (
                  <td key={column}>{display(item[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {items.length > MAX_VARIANTS && <p class="more">and {items.length - MAX_VARIANTS} more</p>}
    </details>
  );
}
