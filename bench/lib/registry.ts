/** Discovers every scenario: each compiled `scenarios/*.js` file default-exports one `Scenario`. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../scenario.js';

export async function loadScenarios(): Promise<Scenario[]> {
  const dir = fileURLToPath(new URL('../scenarios/', import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort();
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const module = (await import(new URL(`../scenarios/${file}`, import.meta.url).href)) as { default?: Scenario };
    const scenario = module.default;
    if (!scenario || typeof scenario.name !== 'string' || typeof scenario.seed !== 'function') {
      throw new Error(`bench/scenarios/${file} must default-export a Scenario ({name, description, seed})`);
    }
    if (scenarios.some((s) => s.name === scenario.name)) throw new Error(`two scenarios are named "${scenario.name}"`);
    scenarios.push(scenario);
  }
  return scenarios.sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.name.localeCompare(b.name));
}
