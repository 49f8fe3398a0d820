/**
 * Operator records a TIR pass hands back (`operatorRecordsProblem`): pinning finds operands by
 * these names, so a rename the records do not follow is refused; a buffer the pass removed
 * altogether (a dead intermediate after fusing two kernels) leaves nothing to constrain.
 */
import { evaluate, makeVar, primFunc } from '../../src/ir/tir/builder';
import { operatorRecordsProblem, withOperatorRecords } from '../../src/ir/tir/operators';

const record = { name: 'y', op: 'dense', target: 'npu', inputs: ['x'], outputs: ['y'], scratch: [] };

it('refuses a renamed operand, lets a removed one go, and names records that do not parse', () => {
  const x = makeVar('x', 'handle', 'int8');
  const y = makeVar('y', 'handle', 'int8');
  const before = withOperatorRecords(primFunc({ params: [x, y], body: evaluate(0) }), [record]);
  const renamed = { ...before, params: [{ ...x, name: 'x2' }, y] };
  expect(operatorRecordsProblem(renamed, before)).toBe(
    "an operator record naming input 0 'x' of dense 'y', which the pass renamed 'x2': operand constraints and pins on it would bind nothing " +
      "(keep the buffer's name, or update the records with withOperatorRecords, attribute 'uma.operators')",
  );
  expect(operatorRecordsProblem({ ...before, params: [y] }, before)).toBeUndefined();
  expect(operatorRecordsProblem(before, before)).toBeUndefined();
  expect(operatorRecordsProblem({ ...before, attrs: { ...before.attrs, 'uma.operators': '[{' } }, before)).toMatch(/^attribute 'uma.operators' that is not JSON \(/);
  expect(operatorRecordsProblem({ ...before, attrs: { ...before.attrs, 'uma.operators': '[{"name":"y"}]' } }, before)).toBe(
    "attribute 'uma.operators' whose entry 0 is not an operator record ({ name, op, target, inputs, outputs, scratch })",
  );
});
