// The form fields' focus: a date field marks itself focused from its focus events (its inner parts hold the
// focus, and Chromium does not always count the field as focused then), so its ring shows; other fields keep
// the stylesheet's :focus-visible ring and no such mark.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from '../src/common/fields';

describe('TextField', () => {
  it('marks a date field focused while it has the focus, and a text field never', () => {
    render(
      <>
        <TextField label="Birthday" type="date" value="" onChange={() => {}} />
        <TextField label="City" value="" onChange={() => {}} />
      </>,
    );
    const birthday = screen.getByLabelText('Birthday');
    const city = screen.getByLabelText('City');
    expect(birthday.classList.contains('field__input--focused')).toBe(false);
    fireEvent.focus(birthday);
    expect(birthday.classList.contains('field__input--focused')).toBe(true);
    fireEvent.blur(birthday);
    expect(birthday.classList.contains('field__input--focused')).toBe(false);
    fireEvent.focus(city);
    expect(city.classList.contains('field__input--focused')).toBe(false);
  });
});
