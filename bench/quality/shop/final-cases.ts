import type { ShopCase } from './cases.js';

/** The final check, written after the engine work and run once (`npm run quality:shop -- --final`). */
export const FINAL_SHOP_CASES: ShopCase[] = [];
