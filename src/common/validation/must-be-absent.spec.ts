import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { MustBeAbsent } from './must-be-absent.js';

class Body {
  @MustBeAbsent('agent_id is not accepted')
  agent_id?: never;
}

const errors = (plain: object) => validateSync(plainToInstance(Body, plain)).map((e) => [e.property, Object.values(e.constraints ?? {})]);

describe('MustBeAbsent', () => {
  it('accepts the field left out', () => {
    expect(errors({})).toEqual([]);
  });

  it.each([null, '', 0, false, 'x', {}, []])('refuses it present as %p', (value) => {
    expect(errors({ agent_id: value })).toEqual([['agent_id', ['agent_id is not accepted']]]);
  });
});
