// The image field while its upload runs: the file input keeps the keyboard focus (marked busy, not disabled,
// ADR 0054), a press on it opens no second file chooser, and the outcome is said in its status line.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { ImageUpload } from '../src/index';

it('keeps the focus on the input while the picture uploads, and ignores presses until it is done', async () => {
  let finish: (url: string) => void = () => {};
  const uploaded: string[] = [];
  render(
    <ImageUpload
      label="Profile Picture"
      noun="picture"
      current={null}
      hasImage={false}
      upload={() =>
        new Promise<string>((resolve) => {
          finish = resolve;
        })
      }
      onUploaded={(url) => uploaded.push(url)}
    />,
  );
  const input = screen.getByLabelText('Profile Picture') as HTMLInputElement;
  input.focus();
  const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });

  await act(async () => fireEvent.change(input, { target: { files: [picture] } }));

  expect(screen.getByRole('status').textContent).toBe('Uploading the picture…');
  expect(input.disabled).toBe(false);
  expect(input.getAttribute('aria-disabled')).toBe('true');
  expect(document.activeElement).toBe(input);
  // A press while busy is cancelled: no file chooser opens for a second upload.
  expect(fireEvent.click(input)).toBe(false);

  await act(async () => finish('/images/me.png'));

  expect(uploaded).toEqual(['/images/me.png']);
  expect(screen.getByRole('status').textContent).toBe('Picture updated.');
  expect(input.hasAttribute('aria-disabled')).toBe(false);
  expect(document.activeElement).toBe(input);
  expect(fireEvent.click(input)).toBe(true);
});
