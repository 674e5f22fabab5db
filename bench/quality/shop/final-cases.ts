import type { ShopCase } from './cases.js';

const RUNNING = ['Running shoes', 'Trail running shoes'];

/** The final check, written after the engine work and run once (`npm run quality:shop -- --final`). */
export const FINAL_SHOP_CASES: ShopCase[] = [
  {
    id: 'f01',
    group: 'f01',
    kind: 'search',
    turns: ['womens running shoes under 130'],
    top: ['road-glide-4-w', 'cloudstep-lite'],
    must: { maxPrice: 130, categories: RUNNING, departments: ['Women', 'Unisex'] },
  },
  { id: 'f02', group: 'f02', kind: 'search', turns: ['a puffer jacket'], top: ['synthetic-puffer', 'featherlight-down'] },
  {
    id: 'f03',
    group: 'f03',
    kind: 'search',
    turns: ['green beanie'],
    top: ['wool-beanie'],
    must: { colour: 'Green', categories: ['Hats'] },
  },
  { id: 'f04', group: 'f04', kind: 'search', turns: ['duffel bag'], top: ['duffel-60', 'gym-duffel'] },
  { id: 'f05', group: 'f05', kind: 'search', turns: ['sports bra'], top: ['sports-bra'] },
  { id: 'f06', group: 'f06', kind: 'refine', turns: ['chelsea boots', 'size 41?'], top: ['chelsea-boot'], must: { size: '41' } },
  {
    id: 'f07',
    group: 'f07',
    kind: 'refine',
    turns: ['hoodies', 'anything cheaper?'],
    top: { categories: ['Hoodies'] },
    must: { categories: ['Hoodies'], cheaperThanPreviousTop: true },
  },
  { id: 'f08', group: 'f08', kind: 'refine', turns: ['yoga mat', 'in green?'], top: ['yoga-mat'], must: { colour: 'Green' } },
  {
    id: 'f09',
    group: 'f09',
    kind: 'refine',
    turns: ['jackets', 'for men under $150'],
    top: { categories: ['Casual jackets', 'Rain jackets', 'Softshell jackets', 'Windbreakers', 'Down jackets'] },
    must: { maxPrice: 150, departments: ['Men', 'Unisex'] },
  },
  {
    id: 'f10',
    group: 'f10',
    kind: 'unsatisfiable',
    turns: ['purple sleeping bag'],
    must: { colour: 'Purple', categories: ['Sleeping bags'] },
  },
  { id: 'f11', group: 'f11', kind: 'unsatisfiable', turns: ['gps watch under $100'], must: { maxPrice: 100, categories: ['Watches'] } },
  { id: 'f12', group: 'f12', kind: 'unsold', turns: ['do you have kayaks'] },
  { id: 'f13', group: 'f13', kind: 'unsold', turns: ['coffee machine'] },
];
