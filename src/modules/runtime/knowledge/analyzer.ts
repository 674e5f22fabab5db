import { stemmer } from 'stemmer';
import { boundedWord, isStopword, MAX_QUERY_TERMS } from '../text/terms.js';
import { wordnet } from './wordnet.js';

/**
 * The knowledge retriever's view of English text: lower-cased words (identifiers such as `shared_buffers` and
 * compounds such as `PL/SQL` or `multi-master` kept whole and split at `_`, `.`, `/` and `-`, so "shared buffers"
 * meets them and a compound the knowledge base never writes stays a name it lacks), stop words dropped,
 * Porter-stemmed (the `stemmer` package: "replication"/"replicate"/"replicating" meet, which the engines' light
 * stemmer does not do).
 */

const WORD = /[\p{L}\p{N}]+/gu;
/**
 * A word, or an identifier or compound joined by `_`, `.`, `/` or `-` (`shared_buffers`, `pg_hba.conf`,
 * `PL/Python`, `read-only`): kept whole and split.
 */
const TOKEN = /[\p{L}\p{N}]+(?:[_./-][\p{L}\p{N}]+)*/gu;

/**
 * Words a support question is built from that say little about its topic ("how do I set up …", "what is the
 * way to …"). They still count, at a fraction of a content word's weight: the question model.
 */
const QUESTION_WORDS = new Set(
  (
    'use using used set setting sets setup make makes making way ways work works working happen happens mean means ' +
    'fix check see find possible able thing things something anything help problem issue example examples right ' +
    'correct best good new old one two someone somebody say says said try trying tried go going come done ' +
    'enable enabled turn configure configured configuration change changes changed run running'
  ).split(/\s+/),
);
const QUESTION_WEIGHT = 0.35;

const STEMS = new Map<string, string>();

/**
 * Irregular English plurals and verb forms a suffix stemmer cannot meet with their base ("teeth"/"tooth",
 * "paid"/"pay", "forgot"/"forget"): a general lexical resource like the stop words, the same for every knowledge
 * base. Both the index and the question read them as the base form.
 */
const IRREGULAR = new Map<string, string>(
  (
    'teeth:tooth feet:foot children:child men:man women:woman people:person mice:mouse geese:goose lives:life ' +
    'wives:wife knives:knife halves:half shelves:shelf thieves:thief paid:pay bought:buy sold:sell sent:send ' +
    'forgot:forget forgotten:forget rode:ride ridden:ride stole:steal stolen:steal broke:break broken:break ' +
    'took:take taken:take gave:give given:give went:go gone:go came:come ran:run wore:wear worn:wear kept:keep ' +
    'found:find made:make wrote:write written:write spent:spend began:begin begun:begin felt:feel held:hold ' +
    'met:meet told:tell thought:think understood:understand chose:choose chosen:choose fell:fall fallen:fall ' +
    'drove:drive driven:drive ate:eat eaten:eat knew:know known:know grew:grow grown:grow outgrew:outgrow ' +
    'outgrown:outgrow threw:throw thrown:throw brought:bring caught:catch taught:teach fought:fight hid:hide ' +
    'hidden:hide shook:shake shaken:shake spoke:speak spoken:speak woke:wake woken:wake lent:lend lost:lose ' +
    'better:good best:good worse:bad worst:bad'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/**
 * The dictionary form of a word when a suffix stemmer would miss it: an irregular form, a comparative or
 * superlative ("whiter" → white, "cheapest" → cheap) or a word with an `e` prefix ("ebikes" → e-bikes) that
 * WordNet does not know while it knows the base. Names and words WordNet knows are left alone.
 */
export function baseForm(word: string): string {
  const irregular = IRREGULAR.get(word);
  if (irregular) return irregular;
  const table = wordnet();
  if (!table || word.length < 5 || /\d/.test(word) || table.relations.has(word) || table.stems.has(stemmer(word))) return word;
  for (const suffix of ['est', 'er']) {
    if (!word.endsWith(suffix)) continue;
    const root = word.slice(0, -suffix.length);
    const candidates = [`${root}e`, root, root.replace(/i$/, 'y'), /(.)\1$/.test(root) ? root.slice(0, -1) : ''];
    const base = candidates.find((c) => c.length > 2 && table.relations.has(c));
    if (base) return base;
  }
  return word;
}

/**
 * The WordNet lemma of an inflected word ("toddlers" → toddler, "renewing" → renew, "outgrows" → outgrow), for
 * dictionary look-ups: the word itself when WordNet lists it, else the first regular un-inflection it lists.
 */
export function lemmaOf(word: string): string {
  const base = baseForm(word);
  const table = wordnet();
  if (!table || table.relations.has(base)) return base;
  const candidates: string[] = [];
  if (base.endsWith('ies')) candidates.push(`${base.slice(0, -3)}y`);
  if (base.endsWith('es')) candidates.push(base.slice(0, -2));
  if (base.endsWith('s')) candidates.push(base.slice(0, -1));
  for (const suffix of ['ing', 'ed']) {
    if (!base.endsWith(suffix)) continue;
    const root = base.slice(0, -suffix.length);
    candidates.push(root, `${root}e`, /(.)\1$/.test(root) ? root.slice(0, -1) : '');
  }
  return candidates.find((c) => c.length > 2 && table.relations.has(c)) ?? base;
}

/** Porter stem of a lower-cased word's base form, memoised (a knowledge base's vocabulary is small; stems repeat). */
export function stemWord(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    s = /^\d/.test(word) ? word : stemmer(baseForm(word));
    if (STEMS.size < 200_000) STEMS.set(word, s);
  }
  return s;
}

export function isStop(word: string): boolean {
  return isStopword(word) || (word.length === 1 && !/\d/.test(word));
}

/** Lower-cased words of a text, in order, each bounded as the rest of the service bounds words. */
export function lowerWords(text: string): string[] {
  const out: string[] = [];
  for (const [w] of text.toLowerCase().matchAll(WORD)) out.push(boundedWord(w));
  return out;
}

/** Lower-cased tokens of a text: each word, and each identifier followed by its parts. */
function tokens(text: string): Array<{ word: string; of?: string }> {
  const out: Array<{ word: string; of?: string }> = [];
  for (const [token] of text.toLowerCase().matchAll(TOKEN)) {
    if (!/[_./-]/.test(token)) {
      out.push({ word: boundedWord(token) });
      continue;
    }
    const whole = boundedWord(token);
    out.push({ word: whole });
    for (const [part] of token.matchAll(WORD)) out.push({ word: boundedWord(part), of: whole });
  }
  return out;
}

/** The term of a token: an identifier stays whole (a stemmer would mangle it), a word is stemmed. */
function termOf(word: string): string {
  return /[_./-]/.test(word) ? word : stemWord(word);
}

/** Index terms of a text, in order (positions matter for proximity). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const { word } of tokens(text)) if (!isStop(word)) out.push(termOf(word));
  return out;
}

export interface QueryWord {
  word: string;
  stem: string;
  /** 1 for a content word, less for the question's frame ("how do I use …") and for parts of identifiers. */
  weight: number;
  /** The identifier this word is a part of (`buffers` of `shared_buffers`). */
  of?: string;
  /** Stem of the clipped form the question used (`db` for `database`). */
  clipped?: string;
}

const PART_WEIGHT = 0.5;

/**
 * Clipped forms of everyday support English and the word a manual spells out ("my db won't start", "the app
 * can't connect"): a general lexical resource like the stop words, not a list of any knowledge base's terms.
 * The question's word stands for its full form; a knowledge base that only ever writes the clipped form is searched
 * for that instead (knowledge/retriever.ts).
 */
const CLIPPED = new Map<string, string>(
  Object.entries({
    db: 'database',
    dbs: 'databases',
    app: 'application',
    apps: 'applications',
    config: 'configuration',
    configs: 'configurations',
    repo: 'repository',
    info: 'information',
    auth: 'authentication',
    admin: 'administrator',
    admins: 'administrators',
    perf: 'performance',
    env: 'environment',
    dir: 'directory',
    dirs: 'directories',
    prod: 'production',
    pw: 'password',
    pwd: 'password',
    passwd: 'password',
    creds: 'credentials',
    stats: 'statistics',
    mem: 'memory',
    ram: 'memory',
    temp: 'temporary',
    tmp: 'temporary',
    msg: 'message',
    msgs: 'messages',
    doc: 'documentation',
    docs: 'documentation',
    param: 'parameter',
    params: 'parameters',
    args: 'arguments',
    arg: 'argument',
    async: 'asynchronous',
    sync: 'synchronous',
    init: 'initialize',
    req: 'request',
    reqs: 'requests',
    conn: 'connection',
    conns: 'connections',
  }),
);

/**
 * Everyday words customers use and the words help pages write for them ("money back" → refund, "rent" → hire,
 * "fix" → repair, "nicked" → stolen): a general lexical resource of service English, like CLIPPED, not a list of
 * any knowledge base's terms. The retriever searches the page words as expansions of the customer's word
 * (knowledge/retriever.ts), only when the knowledge base uses them.
 */
const EVERYDAY = new Map<string, string>(
  Object.entries({
    rent: 'hire',
    rental: 'hire',
    rented: 'hired',
    hire: 'rent rental',
    fix: 'repair',
    fixed: 'repaired',
    broken: 'faulty damaged repair',
    flat: 'puncture',
    nicked: 'stolen theft',
    stolen: 'theft',
    robbed: 'stolen theft',
    money: 'refund payment',
    refund: 'reimbursement',
    cost: 'price fee charge',
    costs: 'prices fees charges',
    price: 'cost fee charge',
    fee: 'charge price cost',
    charge: 'fee price cost',
    cheap: 'price discount',
    cheaper: 'price discount',
    pay: 'payment',
    login: 'sign',
    logon: 'sign',
    signup: 'register join',
    register: 'join registration',
    join: 'register membership',
    appt: 'appointment',
    appts: 'appointments',
    u: 'you',
    ur: 'your',
    pls: 'please',
    asap: 'soon',
    tv: 'television',
    wifi: 'wi-fi wireless internet',
    internet: 'wi-fi online',
    phone: 'telephone mobile call',
    mobile: 'phone',
    cell: 'mobile phone',
    email: 'e-mail',
    kids: 'children',
    kid: 'child',
    dad: 'parent',
    mum: 'parent',
    mom: 'parent',
    stuff: 'items',
    id: 'identification',
    open: 'opening hours',
    close: 'closing opening hours',
    closed: 'closing opening hours',
    late: 'overdue',
    hurt: 'pain',
    hurts: 'pain',
    sore: 'pain',
    ache: 'pain',
    scared: 'anxious nervous',
    afraid: 'anxious nervous',
    terrified: 'anxious nervous',
    cancel: 'cancellation',
    quit: 'cancel',
    delete: 'deletion remove',
    ship: 'delivery deliver',
    shipping: 'delivery',
    post: 'delivery postage',
    deliver: 'delivery',
    pick: 'collect collection',
    pickup: 'collect collection',
    swap: 'exchange',
    trade: 'exchange',
  }),
);

/** The page words the everyday word stands for (none when it is not an everyday form). */
export function everydayForms(word: string): string[] {
  return EVERYDAY.get(word)?.split(' ') ?? [];
}

/** Distinct content words of a question with their weight in the question model, at most `max`. */
export function questionWords(text: string, max = MAX_QUERY_TERMS): QueryWord[] {
  const seen = new Set<string>();
  const out: QueryWord[] = [];
  for (const token of tokens(text)) {
    // Parts of a hyphenated compound ("read-only") are words of their own; parts of an identifier are fragments.
    const of = token.of && /[_./]/.test(token.of) ? token.of : undefined;
    const word = of ? token.word : (CLIPPED.get(token.word) ?? token.word);
    if (isStop(word)) continue;
    const stem = termOf(word);
    if (seen.has(stem)) continue;
    seen.add(stem);
    const weight = (QUESTION_WORDS.has(word) ? QUESTION_WEIGHT : 1) * (of ? PART_WEIGHT : 1);
    const clipped = word !== token.word ? stemWord(token.word) : undefined;
    out.push(of ? { word, stem, weight, of } : clipped ? { word, stem, weight, clipped } : { word, stem, weight });
    if (out.length === max) break;
  }
  return out;
}
