import MiniSearch from 'minisearch';
import type { KnowledgeDocument } from '../../src/modules/bundles/bundle.types.js';

/** The reference row: minisearch with its defaults (BM25, its own tokenizer, no stemming) over whole documents. */
export function plainBm25(documents: KnowledgeDocument[]): (question: string) => string[] {
  const index = new MiniSearch<KnowledgeDocument>({ fields: ['title', 'text'] });
  index.addAll(documents);
  return (question) =>
    index
      .search(question)
      .slice(0, 3)
      .map((r) => String(r.id));
}
