import type { Card } from '../types';
import { display, SafeLink } from './text';

const MAX_VARIANTS = 6;
/**
 * Fields shown in the card's heading rather than its field list, and the record `id`, which is the catalog's key
 * (the card's `instance`), not something a shopper reads.
 */
const NOT_LISTED = new Set(['id', 'name', 'title', 'price', 'currency', 'url', 'description']);

/** A catalog card from `json_data`: the entity's fields, its variants (`sub_entities`), the top pick highlighted. */
export function CardView({ card }: { card: Card }) {
  const entity = card.json_data.entity;
  const title = card.title ?? display(entity.name ?? entity.title ?? card.instance ?? `Card ${card.index + 1}`);
  const fields = Object.entries(entity).filter(([key]) => !NOT_LISTED.has(key));
  return (
    <article class={card.is_recommended ? 'card recommended' : 'card'} data-testid="card">
      <header>
        {card.is_recommended && <span class="badge">Top pick</span>}
        <h4>{title}</h4>
        {entity.price !== undefined && (
          <span class="price">
            {display(entity.price)} {entity.currency !== undefined ? display(entity.currency) : ''}
          </span>
        )}
      </header>
      {entity.description !== undefined && <p class="description">{display(entity.description)}</p>}
      <dl>
        {fields.map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{display(value)}</dd>
          </div>
        ))}
      </dl>
      {card.json_data.sub_entities.map((group) => (
        <SubEntities key={group.name} name={group.name} items={group.items} />
      ))}
      <footer>
        {typeof entity.url === 'string' && <SafeLink href={entity.url}>Open product page</SafeLink>}
        {card.capability && <span class="muted">via {card.capability}</span>}
      </footer>
    </article>
  );
}

function SubEntities({ name, items }: { name: string; items: Array<Record<string, unknown>> }) {
  if (items.length === 0) return null;
  const columns = [...new Set(items.slice(0, MAX_VARIANTS).flatMap((item) => Object.keys(item)))];
  return (
    <details class="variants">
      <summary>
        {items.length} {name}
      </summary>
      {/* The table scrolls inside its own box, never wider than the card (a focusable region for keyboards). */}
      <div class="table-scroll" tabIndex={0} role="region" aria-label={`${name} table`}>
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.slice(0, MAX_VARIANTS).map((item, i) => (
              <tr key={i}>
                {columns.map((column) => (
                  <td key={column}>{display(item[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {items.length > MAX_VARIANTS && <p class="muted">and {items.length - MAX_VARIANTS} more</p>}
    </details>
  );
}
