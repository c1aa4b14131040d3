// The Moderation screen (/moderation), exposed to the shell as 'mf_feed/Moderation' for contributors (ADR 0041):
// the open reports, the closed ones and the log, each a tab.
import { Page, Tabs } from '@rotunda/ui';
import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { LogPanel } from './LogPanel';
import { ReportsPanel } from './ReportsPanel';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/page.css';
import '@rotunda/ui/states.css';
import './moderation.css';

type TabKey = 'open' | 'closed' | 'log';

export default function Moderation() {
  const [tab, setTab] = useState<TabKey>('open');
  return (
    <Page
      icon={ShieldAlert}
      title="Moderation"
      lede="What members reported, your decisions and suspensions. Every decision needs a reason its author reads."
    >
      <Tabs<TabKey>
        label="Moderation"
        selected={tab}
        onSelect={setTab}
        tabs={[
          // Keyed, so each tab's panel loads its own list.
          { key: 'open', label: 'Open', render: () => <ReportsPanel key="open" status="open" /> },
          { key: 'closed', label: 'Closed', render: () => <ReportsPanel key="closed" status="closed" /> },
          { key: 'log', label: 'Log', render: () => <LogPanel /> },
        ]}
      />
    </Page>
  );
}
