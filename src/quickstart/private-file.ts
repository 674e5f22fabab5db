import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes a file only its owner can read (0600), in a directory only its owner can list (0700): it holds keys. */
export function writePrivateFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, content, { mode: 0o600 });
  // `mode` applies only when the file is created: tighten one written earlier by something else.
  chmodSync(path, 0o600);
}
