import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { compileWordNet, formatTable, tablePath } from './wordnet.js';

/**
 * Run by `npm run build` after tsc (node dist/src/modules/runtime/knowledge/wordnet-build.js): compiles the
 * WordNet synonym table once, so no process parses the database on a turn (wordnet.ts).
 */
const path = tablePath();
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, formatTable(compileWordNet()));
