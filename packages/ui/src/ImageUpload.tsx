// An image field that uploads as soon as an image is chosen (docs/product.md#4-states-and-transitions Logo
// and picture upload): the choice is checked first (prepareImage: type, size, fitted within 450×600), a
// refused one shows the spec's message and keeps the current image; otherwise a preview shows at once while
// the upload runs, and the stored image's URL is handed to the caller. A refusal by the server shows the
// server's own message.
import { IMAGE_LIMITS } from '@rotunda/rules';
import { ImageUp } from 'lucide-react';
import { type ChangeEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { IMAGE_ACCEPT, prepareImage } from './image-file';
import './controls.css';
import './image-upload.css';

type Status =
  | { kind: 'idle' }
  | { kind: 'uploading' }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

export interface ImageUploadProps {
  /** The field's label, e.g. 'Profile Picture'. */
  label: string;
  /** The image's name in the texts around it, lower case: 'picture' gives 'Upload picture', 'Picture updated.' */
  noun: string;
  /** The image as it is now (or a placeholder), shown when no new one is being previewed. */
  current: ReactNode;
  /** Whether there is an image already: the button reads 'Replace …' rather than 'Upload …'. */
  hasImage: boolean;
  /** Stores the checked image; answers its URL. */
  upload: (file: Blob, fileName: string) => Promise<string>;
  onUploaded: (url: string) => void;
  /** The server's message in a refused upload, when the error carries one the member should read. */
  messageOf?: (error: unknown) => string | null;
  /** Marks the field as required: an asterisk by the label, and 'Required.' in the hint screen readers read. */
  required?: boolean;
  /** round: a person's picture; square: a logo. */
  shape?: 'round' | 'square';
  /** The form refused to go on without an image: the input is marked invalid and described by `describedBy`. */
  invalid?: { describedBy: string } | undefined;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function ImageUpload({
  label,
  noun,
  current,
  hasImage,
  upload,
  onUploaded,
  messageOf,
  required = false,
  shape = 'square',
  invalid,
}: ImageUploadProps) {
  const inputId = useId();
  const hintId = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const previewRef = useRef<string | null>(null);

  const showPreview = (url: string | null) => {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    previewRef.current = url;
    setPreview(url);
  };
  useEffect(
    () => () => {
      if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    },
    [],
  );

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const chosen = input.files?.[0];
    // Emptied, so choosing the same file again is a change too.
    input.value = '';
    if (!chosen) return;
    const check = await prepareImage(chosen);
    if (!check.ok) {
      setStatus({ kind: 'error', message: check.message });
      return;
    }
    showPreview(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(check.file) : null);
    setStatus({ kind: 'uploading' });
    try {
      const url = await upload(check.file, check.fileName);
      onUploaded(url);
      showPreview(null);
      setStatus({ kind: 'done' });
    } catch (error) {
      showPreview(null);
      const serverSays = messageOf?.(error) ?? null;
      if (!serverSays) console.error(`The ${noun} could not be uploaded`, error);
      setStatus({
        kind: 'error',
        message: serverSays ?? `The ${noun} could not be uploaded right now. Please try again.`,
      });
    }
  };

  return (
    <div className={`image-upload image-upload--${shape}`}>
      <span className="image-upload__preview">
        {preview ? <img src={preview} alt={`Preview of the new ${noun}`} width={96} height={96} /> : current}
      </span>
      <div className="image-upload__controls">
        <span className="field__label">
          {label}
          {required && (
            <span className="image-upload__required" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </span>
        <input
          id={inputId}
          className="visually-hidden image-upload__input"
          type="file"
          accept={IMAGE_ACCEPT}
          aria-label={label}
          aria-describedby={invalid ? `${hintId} ${invalid.describedBy}` : hintId}
          aria-invalid={invalid ? true : undefined}
          // Marked, not disabled: a disabled input drops the keyboard focus it holds to the page's start (ADR 0054).
          aria-disabled={status.kind === 'uploading' || undefined}
          onClick={(event) => {
            if (status.kind === 'uploading') event.preventDefault();
          }}
          onChange={onChange}
        />
        <label htmlFor={inputId} className="button button--secondary image-upload__button">
          <ImageUp size={18} aria-hidden="true" />
          {hasImage ? `Replace ${noun}` : `Upload ${noun}`}
        </label>
        <p id={hintId} className="image-upload__hint">
          {required && 'Required. '}JPG or PNG. Uploaded as soon as you choose it; larger images are fitted
          within {IMAGE_LIMITS.maxWidth} × {IMAGE_LIMITS.maxHeight} pixels.
        </p>
        <p className="image-upload__status" role="status">
          {status.kind === 'uploading' && `Uploading the ${noun}…`}
          {status.kind === 'done' && `${capitalized(noun)} updated.`}
        </p>
        {status.kind === 'error' && (
          <p className="image-upload__error" role="alert">
            {status.message}
          </p>
        )}
      </div>
    </div>
  );
}
