// The logo field of the Edit Organization dialog: choosing a .jpg, .jpeg or .png checks it, shows a preview
// at once and uploads it immediately (spec §4); a refused file shows the spec's message (or the server's),
// and the previous logo stays.
import { IMAGE_LIMITS } from '@rotunda/rules';
import { prepareImage as prepareLogo } from '@rotunda/ui';
import { ImageUp } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError, uploadLogo } from '../api';
import { OrgLogo } from '../common/OrgLogo';

type Status =
  | { kind: 'idle' }
  | { kind: 'uploading' }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

interface LogoUploadProps {
  organizationId: number;
  organizationName: string;
  logo: string | null;
  onUploaded: (url: string) => void;
}

const ACCEPT = IMAGE_LIMITS.allowedExtensions.map((ext) => `.${ext}`).join(',');

export function LogoUpload({ organizationId, organizationName, logo, onUploaded }: LogoUploadProps) {
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
    const check = await prepareLogo(chosen);
    if (!check.ok) {
      setStatus({ kind: 'error', message: check.message });
      return;
    }
    showPreview(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(check.file) : null);
    setStatus({ kind: 'uploading' });
    try {
      const url = await uploadLogo(organizationId, check.file, check.fileName);
      onUploaded(url);
      showPreview(null);
      setStatus({ kind: 'done' });
    } catch (error) {
      showPreview(null);
      const serverSays = error instanceof ApiError && error.status < 500 ? error.serverMessage : null;
      if (!serverSays) console.error('The logo could not be uploaded', error);
      setStatus({
        kind: 'error',
        message: serverSays ?? 'The logo could not be uploaded right now. Please try again.',
      });
    }
  };

  return (
    <div className="orgs-logo-field">
      <span className="orgs-logo-field__preview">
        {preview ? (
          <span className="orgs-logo orgs-logo--large">
            <img src={preview} alt="Preview of the new logo" width={96} height={96} />
          </span>
        ) : (
          <OrgLogo name={organizationName} logo={logo} size="large" />
        )}
      </span>
      <div className="orgs-logo-field__controls">
        <span className="field__label" id={`${inputId}-label`}>
          Logo
        </span>
        <input
          id={inputId}
          className="visually-hidden orgs-file-input"
          type="file"
          accept={ACCEPT}
          aria-describedby={hintId}
          disabled={status.kind === 'uploading'}
          onChange={onChange}
        />
        <label htmlFor={inputId} className="button button--secondary orgs-file-button">
          <ImageUp size={18} aria-hidden="true" />
          {logo ? 'Replace logo' : 'Upload logo'}
        </label>
        <p id={hintId} className="orgs-field__hint">
          JPG or PNG. Uploaded as soon as you choose it; larger images are fitted within{' '}
          {IMAGE_LIMITS.maxWidth} × {IMAGE_LIMITS.maxHeight} pixels.
        </p>
        <p className="orgs-logo-field__status" role="status">
          {status.kind === 'uploading' && 'Uploading the logo…'}
          {status.kind === 'done' && 'Logo updated.'}
        </p>
        {status.kind === 'error' && (
          <p className="orgs-field__error" role="alert">
            {status.message}
          </p>
        )}
      </div>
    </div>
  );
}
