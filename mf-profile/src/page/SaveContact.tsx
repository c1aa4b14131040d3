// "Save contact" on the profile card: the person's work contact as a vCard file an address book imports. The
// card is member-only and the app authenticates with a header, so it is fetched, then saved through an object
// URL; busy while it comes, a line saying so when it fails.

import { saveBlob, useAction } from '@rotunda/ui';
import { Contact } from 'lucide-react';
import { fetchContactCard } from '../api';
import { FormError } from '../common/fields';
import './save-contact.css';

const FAILED = 'The contact could not be saved right now. Please try again in a moment.';

export function SaveContact({ profileId }: { profileId: number }) {
  const { busy, error, run } = useAction();

  const save = () =>
    run(
      async () => {
        const { blob, fileName } = await fetchContactCard(profileId);
        saveBlob(blob, fileName ?? 'contact.vcf');
      },
      (failure) => {
        console.error('The contact card could not be downloaded', failure);
        return FAILED;
      },
    );

  return (
    <div className="prof-save-contact">
      <button
        type="button"
        className="button button--secondary button--block"
        onClick={save}
        disabled={busy}
        aria-busy={busy}
      >
        <Contact size={18} aria-hidden="true" />
        {busy ? 'Saving contact…' : 'Save contact'}
      </button>
      <FormError message={error} />
    </div>
  );
}
