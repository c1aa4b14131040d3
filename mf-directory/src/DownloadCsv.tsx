// The directory's "Download CSV" button: the current search's people (up to 5,000, work contacts only) saved as
// a spreadsheet. Busy while the file is prepared; a refusal shows as a line under it, the server's own words
// when it says when to try again (too many downloads), a calm generic line otherwise. The screen keys it by the
// search, so a refusal is forgotten when the filters change.

import { ApiError, ErrorLine, saveBlob, useAction } from '@rotunda/ui';
import { Download } from 'lucide-react';
import { fetchPeopleCsv, type PeopleQuery } from './api';

type Filters = Pick<PeopleQuery, 'search' | 'group' | 'issue'>;

const FALLBACK_NAME = 'rotunda-directory.csv';

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.status === 429)
    return error.serverMessage ?? 'Too many downloads. Please try again in a few minutes.';
  return 'The CSV could not be downloaded right now. Please try again in a moment.';
}

export function DownloadCsv({ search, group, issue }: Filters) {
  const { busy, error, run } = useAction();
  const download = () =>
    run(
      async () => {
        const { blob, fileName } = await fetchPeopleCsv({ search, group, issue });
        saveBlob(blob, fileName ?? FALLBACK_NAME);
      },
      (failure) => {
        console.error('The directory CSV could not be downloaded', failure);
        return failureText(failure);
      },
    );

  return (
    <div className="dir-download">
      <button
        type="button"
        className="button button--secondary dir-download__button"
        onClick={download}
        disabled={busy}
        aria-busy={busy}
      >
        <Download size={16} aria-hidden="true" />
        {busy ? 'Preparing CSV…' : 'Download CSV'}
      </button>
      {error && <ErrorLine>{error}</ErrorLine>}
    </div>
  );
}
