// The public square (/public-square), exposed to the shell as 'mf_feed/PublicSquare': open to visitors,
// with the members' column beside the Headlines column from 770 px wide.
import { useIsAuthenticated } from '@rotunda/session';
import { IconBadge } from '@rotunda/ui';
import { Megaphone } from 'lucide-react';
import { Headlines } from './headlines/Headlines';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/page.css';
import './feed.css';

export default function PublicSquare() {
  const isAuthenticated = useIsAuthenticated();
  return (
    <div className="page">
      {/* The shared title and lede, without the icon and rule of the other screens' page header. */}
      <header>
        <h1 className="page-title">Public Square</h1>
        <p className="page-lede">
          Announcements, events and the day&rsquo;s news from California&rsquo;s policy community.
        </p>
      </header>
      <div className="square__columns">
        <section className="square__main" aria-labelledby="square-members-title">
          <div className="square-intro">
            <IconBadge icon={Megaphone} />
            <div>
              <h2 id="square-members-title" className="square-intro__title">
                From the members
              </h2>
              <p className="square-intro__text">
                {isAuthenticated
                  ? 'Share announcements and events with colleagues across agencies, the Legislature and the groups that work with them.'
                  : 'Members share announcements and events here. Sign in with your work email to post, like and comment.'}
              </p>
            </div>
          </div>
        </section>
        <aside className="square__aside" aria-label="News">
          <Headlines />
        </aside>
      </div>
    </div>
  );
}
