/**
 * What the console keeps: only this tab's sessionStorage (gone when the tab closes), never localStorage or cookies.
 * The credential the person signed in with, the publishable keys the console minted for agents (so a reload reuses
 * them and sign-out revokes them), the end-user id its conversations use, and the project last picked.
 */
export type Credential =
  | { kind: 'org'; key: string }
  | { kind: 'session'; token: string; email: string; expiresAt: number }
  | { kind: 'publishable'; key: string };
export interface MintedKey {
  id: string;
  key: string;
}

const CREDENTIAL = 'console.credential';
const KEYS = 'console.keys';
const USER = 'console.user';
const PROJECT = 'console.project';

function read<T>(name: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(name);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  } catch {
    return undefined;
  }
}

const write = (name: string, value: unknown) => sessionStorage.setItem(name, JSON.stringify(value));

export const session = {
  /** A login session past its expiry counts as signed out. */
  credential(): Credential | undefined {
    const credential = read<Credential>(CREDENTIAL);
    return credential?.kind === 'session' && credential.expiresAt <= Date.now() ? undefined : credential;
  },
  saveCredential: (credential: Credential) => write(CREDENTIAL, credential),
  mintedKeys: () => read<Record<string, MintedKey>>(KEYS) ?? {},
  saveMintedKey(agentId: string, key: MintedKey | undefined) {
    const keys = session.mintedKeys();
    if (key) keys[agentId] = key;
    else delete keys[agentId];
    write(KEYS, keys);
  },
  project: () => read<string>(PROJECT),
  saveProject: (projectId: string) => write(PROJECT, projectId),
  /** One end user per tab, so the thread browser can find this tab's conversations. */
  userId(): string {
    let id = read<string>(USER);
    if (!id) {
      id = `console-${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(16).padStart(8, '0')}`;
      write(USER, id);
    }
    return id;
  },
  clear() {
    for (const name of [CREDENTIAL, KEYS, USER, PROJECT]) sessionStorage.removeItem(name);
  },
};
