// The landing page for visitors: what Rotunda is, and the ways in (register, log in, sign up).
import { Building2, Megaphone, Users } from 'lucide-react';
import { Link } from 'react-router';
import { useUi } from '../ui';

const HIGHLIGHTS = [
  {
    icon: Users,
    title: 'Directory',
    text: 'Find staff, agency leads and advocates by name, office or issue.',
  },
  { icon: Building2, title: 'Organizations', text: 'See who works where, from committees to associations.' },
  {
    icon: Megaphone,
    title: 'Public Square',
    text: 'Share announcements and events, and read the day’s headlines.',
  },
];

export function Landing() {
  const openDialog = useUi((s) => s.openDialog);
  return (
    <div className="landing">
      <section className="landing__hero" aria-labelledby="landing-title">
        <p className="landing__eyebrow">Rotunda</p>
        <h1 id="landing-title" className="landing__title">
          Where California&rsquo;s policy community meets.
        </h1>
        <p className="landing__lede">
          The members-only directory and public square for people who work in and around state government:
          legislators and staff, agencies, associations, advocates and campaigns.
        </p>
        <div className="landing__actions">
          <button
            type="button"
            className="button button--primary button--large"
            onClick={() => openDialog('register')}
          >
            Register Today!
          </button>
          <button
            type="button"
            className="button button--secondary button--large"
            onClick={() => openDialog('login')}
          >
            Login
          </button>
        </div>
        <p className="landing__signup">
          New to Rotunda?{' '}
          <button type="button" className="link-button" onClick={() => openDialog('register')}>
            Sign up with your work email
          </button>
          {' · '}
          <Link to="/public-square">Read the Public Square</Link>
        </p>
      </section>
      <ul className="landing__highlights" aria-label="What you will find">
        {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="highlight">
            <span className="highlight__icon" aria-hidden="true">
              <Icon size={20} />
            </span>
            <h2 className="highlight__title">{title}</h2>
            <p className="highlight__text">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
