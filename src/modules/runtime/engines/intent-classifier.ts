import type { Intent } from '../../bundles/bundle.types.js';
import { keywords } from '../text/terms.js';

export interface IntentMatch {
  name: string;
  /** Cosine similarity (0..1) of the message to the intent's closest example. */
  score: number;
  example: string;
}

interface ExampleVector {
  intent: number;
  text: string;
  norm: number;
}

/**
 * Intent recognition by TF-IDF cosine similarity between the message and every example (nearest example
 * wins per intent). Term vectors live in an inverted index built once per revision, so a turn costs one
 * pass over the message's terms and the postings they hit.
 */
export class IntentClassifier {
  /** Cosine below this is "no intent". 0.3 ≈ a shared content word or two with a short example. */
  static readonly THRESHOLD = 0.3;

  private readonly names: string[] = [];
  private readonly examples: ExampleVector[] = [];
  private readonly idf = new Map<string, number>();
  private readonly postings = new Map<string, Array<{ example: number; weight: number }>>();

  constructor(intents: Intent[] | undefined) {
    const docs: Array<{ intent: number; text: string; tf: Map<string, number> }> = [];
    (intents ?? []).forEach((intent, i) => {
      this.names.push(intent.name);
      for (const example of intent.examples ?? []) {
        const tf = new Map<string, number>();
        for (const term of keywords(example)) tf.set(term, (tf.get(term) ?? 0) + 1);
        if (tf.size) docs.push({ intent: i, text: example, tf });
      }
    });
    const df = new Map<string, number>();
    for (const d of docs) for (const term of d.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
    for (const [term, n] of df) this.idf.set(term, Math.log(1 + docs.length / n) + 0.5);
    docs.forEach((d, index) => {
      let sq = 0;
      for (const [term, count] of d.tf) {
        const weight = (1 + Math.log(count)) * (this.idf.get(term) ?? 0);
        sq += weight * weight;
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ example: index, weight });
      }
      this.examples.push({ intent: d.intent, text: d.text, norm: Math.sqrt(sq) });
    });
  }

  get size(): number {
    return this.names.length;
  }

  /** Intents whose similarity reaches the threshold, best first. */
  classify(text: string | undefined, threshold = IntentClassifier.THRESHOLD): IntentMatch[] {
    if (!text || !this.examples.length) return [];
    const tf = new Map<string, number>();
    for (const term of keywords(text)) if (this.idf.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
    if (!tf.size) return [];
    // The query norm counts unknown terms too (at the mean idf), so a long message that merely
    // mentions one example word does not look like a perfect match.
    const all = keywords(text);
    let qsq = 0;
    const dots = new Map<number, number>();
    for (const [term, count] of tf) {
      const weight = (1 + Math.log(count)) * (this.idf.get(term) ?? 0);
      qsq += weight * weight;
      for (const p of this.postings.get(term) ?? []) dots.set(p.example, (dots.get(p.example) ?? 0) + weight * p.weight);
    }
    const unknown = all.filter((t) => !this.idf.has(t)).length;
    qsq += unknown * 1.0;
    const qnorm = Math.sqrt(qsq);
    const best = new Map<number, IntentMatch>();
    for (const [index, dot] of dots) {
      const ex = this.examples[index]!;
      const score = dot / (qnorm * ex.norm);
      const current = best.get(ex.intent);
      if (!current || score > current.score) best.set(ex.intent, { name: this.names[ex.intent]!, score, example: ex.text });
    }
    return [...best.values()].filter((m) => m.score >= threshold).sort((a, b) => b.score - a.score);
  }
}
