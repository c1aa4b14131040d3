// The job history (docs/product.md#2-screens-and-routes, #9-business-constants-and-limits): each position
// with its title, organization (a link to its page), office and dates as 'Jan 2020 – present', current one
// first. Those who may edit add a job and edit each one.
import { Pencil, Plus } from 'lucide-react';
import { Link } from 'react-router';
import type { Job } from '../api';
import { Panel } from '../common/Panel';
import { jobDates } from '../profile-rules';

interface JobHistoryProps {
  jobs: readonly Job[];
  canEdit: boolean;
  onAdd: () => void;
  onEdit: (job: Job) => void;
}

export function JobHistory({ jobs, canEdit, onAdd, onEdit }: JobHistoryProps) {
  return (
    <Panel
      title="Job history"
      tools={
        canEdit && (
          <button
            type="button"
            className="button button--secondary prof-panel__action"
            aria-haspopup="dialog"
            onClick={onAdd}
          >
            <Plus size={16} aria-hidden="true" />
            Add job
          </button>
        )
      }
    >
      {jobs.length === 0 ? (
        <p className="prof-empty">No positions listed yet.</p>
      ) : (
        <ol className="prof-jobs">
          {jobs.map((job) => (
            <li key={job.job_id} className="prof-job">
              <div className="prof-job__body">
                <h3 className="prof-job__title">{job.title}</h3>
                <p className="prof-job__organization">
                  <Link to={`/organization/${job.organization_id}`}>
                    {job.Organization.organization_name}
                  </Link>
                  {job.Division && <span className="prof-job__division">{job.Division.division_name}</span>}
                </p>
                <p className="prof-job__dates">
                  {jobDates(job)}
                  {job.current_job && <span className="prof-badge">Current</span>}
                </p>
              </div>
              {canEdit && (
                <button
                  type="button"
                  className="icon-button"
                  aria-haspopup="dialog"
                  aria-label={`Edit ${job.title} at ${job.Organization.organization_name}`}
                  onClick={() => onEdit(job)}
                >
                  <Pencil size={16} aria-hidden="true" />
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
