// Every issue area there is, for the issue suggestions; none (so only new names) if they cannot be loaded,
// which is only logged (docs/product.md#8-error-catalogue: data-fetch failures show no message).

import { fetchIssues, type IssueArea } from '@rotunda/ui';
import { useEffect, useState } from 'react';

export function useIssues(): IssueArea[] {
  const [issues, setIssues] = useState<IssueArea[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    fetchIssues(controller.signal).then(setIssues, (error: unknown) => {
      if (!controller.signal.aborted) console.error('The issue areas could not be loaded', error);
    });
    return () => controller.abort();
  }, []);
  return issues;
}
