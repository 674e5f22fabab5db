// `npm run client:generate`: the typed part of the client (src/schema.ts) from openapi.json, formatted like the
// rest of the tree. CI runs it with a scratch output path and fails when the committed file differs.
//   node clients/typescript/scripts/generate.mjs [output]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const target = `${root}clients/typescript/src/schema.ts`;
const output = process.argv[2] ?? target;

const document = JSON.parse(readFileSync(`${root}openapi.json`, 'utf8'));
// defaultNonNullable off: a request field with a default (include_trace) stays optional to send.
const ast = await openapiTS(document, { defaultNonNullable: false });
const header = '/* Generated from openapi.json by `npm run client:generate` (openapi-typescript). Do not edit. */\n\n';
const options = { ...(await prettier.resolveConfig(target)), filepath: target };
writeFileSync(output, await prettier.format(header + astToString(ast), options));
process.stdout.write(`wrote ${output}\n`);
