/**
 * What the page keeps: only this tab's sessionStorage (gone when the tab closes), never localStorage or cookies.
 * The credential the person signed in with, the publishable keys the page minted for agents (so a reload reuses
 * them and sign-out revokes them), and the end-user id its conversations use.
 */
export type Credential = { kind: 'org'; key: string } | { kind: 'publishable'; key: string };
export interface MintedKey {
  id: string;
  key: string;
}

const CREDENTIAL = 'playground.credential';
const KEYS = 'playground.keys';
const USER = 'playground.user';

function read<T>(name: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(name);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  } catch {
    return undefined;
  }
}

export const session = {
  credential: () => read<Credential>(CREDENTIAL),
  saveCredential: (credential: Credential) => sessionStorage.setItem(CREDENTIAL, JSON.stringify(credential)),
  mintedKeys: () => read<Record<string, MintedKey>>(KEYS) ?? {},
  saveMintedKey(agentId: string, key: MintedKey | undefined) {
    const keys = session.mintedKeys();
    if (key) keys[agentId] = key;
    else delete keys[agentId];
    sessionStorage.setItem(KEYS, JSON.stringify(keys));
  },
  /** One end user per tab, so the thread browser can find this tab's conversations. */
  userId(): string {
    let id = read<string>(USER);
    if (!id) {
      id = `playground-${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(16).padStart(8, '0')}`;
      sessionStorage.setItem(USER, JSON.stringify(id));
    }
    return id;
  },
  clear() {
    for (const name of [CREDENTIAL, KEYS, USER]) sessionStorage.removeItem(name);
  },
};
