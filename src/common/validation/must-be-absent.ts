import { ValidateBy } from 'class-validator';

/**
 * A field the caller must not send at all: any value, `null` and `""` included, is a 422 naming it. (class-validator's
 * IsEmpty lets `null` and `""` through.) JSON cannot carry `undefined`, so "present" is "not undefined".
 */
export const MustBeAbsent = (message: string) =>
  ValidateBy({ name: 'mustBeAbsent', validator: { validate: (value: unknown) => value === undefined, defaultMessage: () => message } });
