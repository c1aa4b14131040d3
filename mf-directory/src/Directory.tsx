// The people directory screen (/directory), exposed to the shell as 'mf_directory/Directory'.
import { Users } from 'lucide-react';
import './directory.css';

export default function Directory() {
  return (
    <div className="directory">
      <header className="directory__header">
        <span className="directory__icon" aria-hidden="true">
          <Users size={22} />
        </span>
        <div>
          <h1 className="directory__title">Directory</h1>
          <p className="directory__lede">
            People who work in and around state government: legislators and their staff, agencies,
            associations, advocates and campaigns.
          </p>
        </div>
      </header>
    </div>
  );
}
