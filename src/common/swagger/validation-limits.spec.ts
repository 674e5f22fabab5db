import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsInt, IsString, Max, Min } from 'class-validator';
import { IsId } from '../ids/is-id.decorator.js';
import { CharLength, MaxChars } from '../validation/char-length.js';
import { documentValidationLimits, longestMatch } from './validation-limits.js';

class LimitsProbeDto {
  @ApiProperty({ description: 'A name' })
  @IsString()
  @CharLength(1, 100)
  name: string;

  @ApiPropertyOptional({ type: [String], description: 'Tags' })
  @ArrayMaxSize(20)
  @MaxChars(50, { each: true })
  tags?: string[];

  @ApiProperty({ type: 'integer', description: 'A count' })
  @IsInt()
  @Min(0)
  @Max(1000)
  count: number;

  @ApiProperty({ type: 'integer', description: 'Unbounded above' })
  @IsInt()
  @Min(0)
  big: number;

  @ApiProperty({ description: 'Said by its decorator', maxLength: 10 })
  @MaxChars(99)
  explicit: string;

  @ApiProperty({ description: 'An id' })
  @IsId()
  ref: string;

  // Validated but not documented: stays out of the document.
  @MaxChars(5)
  hidden?: string;
}

const schemaOf = (key: string) =>
  Reflect.getMetadata('swagger/apiModelProperties', LimitsProbeDto.prototype, key) as Record<string, unknown>;

describe('documentValidationLimits', () => {
  beforeAll(() => documentValidationLimits());

  it('writes the limits the validators enforce into the documented schema', () => {
    expect(schemaOf('name')).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(schemaOf('tags')).toMatchObject({ maxItems: 20, maxLength: 50 });
    expect(schemaOf('count')).toMatchObject({ minimum: 0, maximum: 1000, format: 'int32' });
    expect(schemaOf('big')).toMatchObject({ minimum: 0, format: 'int64' });
    expect(schemaOf('ref')).toMatchObject({ maxLength: 24 });
  });

  it('keeps what a decorator says and documents nothing new', () => {
    expect(schemaOf('explicit').maxLength).toBe(10);
    expect(schemaOf('hidden')).toBeUndefined();
  });

  it('reads the longest match of a bounded pattern, and nothing from an unbounded one', () => {
    expect(longestMatch('^[0-9a-fA-F]{24}$')).toBe(24);
    expect(longestMatch('^v\\d{1,9}\\.\\d{1,9}$')).toBe(20);
    expect(longestMatch('^\\d{1,9}(\\.\\d{1,9}){0,2}$')).toBe(29);
    expect(longestMatch('^[A-Za-z0-9_.-]{1,100}(:(fired|blocked|passed))?$')).toBe(108);
    expect(longestMatch('^(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d{1,9})?(?:[Zz]|([+-])(\\d{2}):(\\d{2}))$')).toBe(
      35,
    );
    for (const unbounded of ['^a+$', '^a*$', '^a{2,}$', '^(a)\\1$', '^(?=a)a$']) expect(longestMatch(unbounded)).toBeUndefined();
  });

  it('is idempotent', () => {
    const before = schemaOf('count');
    documentValidationLimits();
    expect(schemaOf('count')).toEqual(before);
  });
});
