import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { assemblePage, planPage, type KeysetSpec, type PageRequest } from './keyset.js';
import type { Page } from './page.dto.js';
import type { PageQuery } from './page-query.dto.js';

export type { KeysetSpec, PageRequest };

/** Keyset pagination of a TypeORM query (see keyset.ts). */
export async function paginate<E extends ObjectLiteral, R>(
  qb: SelectQueryBuilder<E>,
  query: PageQuery,
  spec: KeysetSpec<E>,
  request: PageRequest,
  toItem: (row: E) => R,
): Promise<Page<R>> {
  const plan = planPage(query, spec);
  if (plan.cursor) {
    qb.andWhere(`(${plan.column}, ${spec.idColumn}) ${plan.comparison} (:cursorValue${plan.cursor.cast}, :cursorId)`, {
      cursorValue: plan.cursor.value,
      cursorId: plan.cursor.id,
    });
  }
  const rows = await qb
    .orderBy(plan.column, plan.direction)
    .addOrderBy(spec.idColumn, plan.direction)
    .limit(plan.size + 1)
    .getMany();
  return assemblePage(rows, plan, spec, request, toItem);
}
