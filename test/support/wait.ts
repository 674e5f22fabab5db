/** What a probe answers while the condition does not hold yet. */
type NotYet = undefined | null | false;

/**
 * Polls `probe` every 25 ms until it answers a value (anything but undefined, null or false) and returns that value;
 * after `timeoutMs` fails with an error naming `what` was awaited.
 */
export async function waitFor<T>(probe: () => T | NotYet | Promise<T | NotYet>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
