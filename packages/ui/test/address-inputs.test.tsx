// The address inputs the job form and the Edit Organization dialog share: each form's own labels, required
// fields and limits come from its record's table, in the address's order, with the browser's autofill hints.
import { JOB_FIELDS, ORGANIZATION_FIELDS } from '@rotunda/rules';
import { fireEvent, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { AddressInputs } from '../src/index';

const blank = { street_address: '', suite_number: '', city: '', state: '', zip_code: '' };
const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

it("draws the job's address from JOB_FIELDS: its labels, required fields and limits", () => {
  const onChange = vi.fn();
  render(<AddressInputs rows={JOB_FIELDS} values={blank} onChange={onChange} requiredClassName="req" />);
  const names = screen.getAllByRole('textbox').map((field) => field.getAttribute('name'));
  expect(names).toEqual(['street_address', 'suite_number', 'city', 'state', 'zip_code']);
  expect(['Address', 'City', 'State', 'Zip Code'].map((name) => input(name).required)).toEqual([
    true,
    true,
    true,
    true,
  ]);
  expect(input('Suite').required).toBe(false);
  expect(input('Zip Code').maxLength).toBe(16);
  expect(input('State').maxLength).toBe(32);
  expect(input('Zip Code').autocomplete).toBe('postal-code');
  expect(input('Zip Code').inputMode).toBe('numeric');
  fireEvent.change(input('City'), { target: { value: 'Fresno' } });
  expect(onChange).toHaveBeenCalledWith('city', 'Fresno');
});

it("draws the organization's address with the Edit Organization form's labels: only the street required", () => {
  const onBlur = vi.fn();
  render(
    <AddressInputs
      rows={ORGANIZATION_FIELDS}
      values={{ ...blank, street_address: '1201 K Street' }}
      onChange={() => {}}
      onBlur={onBlur}
      requiredClassName="req"
    />,
  );
  expect(input('Street address').value).toBe('1201 K Street');
  expect(input('Street address').required).toBe(true);
  expect(['Suite', 'City', 'State', 'ZIP code'].map((name) => input(name).required)).toEqual([
    false,
    false,
    false,
    false,
  ]);
  fireEvent.blur(input('ZIP code'), { target: { value: ' 95814 ' } });
  expect(onBlur).toHaveBeenCalledWith('zip_code', ' 95814 ');
});
