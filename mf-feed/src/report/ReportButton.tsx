// "Report" on a post or comment, for signed-in members other than its author (visitors and the author see
// nothing): opens the report dialog, and says "Reported" (doing nothing more) once the member reported it in this visit. The focus
// goes back to it when the dialog closes.
import { useUser } from '@rotunda/session';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import type { ReportTarget } from '../api';
import { useOpenedOnce } from '../common/useOpenedOnce';
import { ReportDialog } from './ReportDialog';
import { useReported } from './reported';

interface ReportButtonProps {
  target: ReportTarget;
  /** The author's user id: nobody reports their own post or comment. */
  authorId: string;
  /** The element naming what is reported (a post's title), for screen readers. */
  describedBy?: string;
  /** The comments' smaller button. */
  small?: boolean;
}

export function ReportButton({ target, authorId, describedBy, small = false }: ReportButtonProps) {
  const user = useUser();
  const [open, setOpen] = useState(false);
  const opened = useOpenedOnce(open);
  const reported = useReported(user?.user_id ?? '', target);
  if (!user || user.user_id === authorId) return null;

  const size = small ? 14 : 16;
  return (
    <>
      {/* Stays a button once reported (inert), so the focus the dialog hands back has somewhere to land. */}
      <button
        type="button"
        className={small ? 'report-button report-button--small' : 'report-button'}
        aria-label={`${reported ? 'Reported' : 'Report'} ${target.target_type}`}
        aria-haspopup={reported ? undefined : 'dialog'}
        aria-disabled={reported || undefined}
        aria-describedby={describedBy}
        onClick={() => {
          if (!reported) setOpen(true);
        }}
      >
        <Flag size={size} aria-hidden="true" />
        {reported ? 'Reported' : 'Report'}
      </button>
      {opened && (
        <ReportDialog open={open} target={target} userId={user.user_id} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
