import { EmptyState, Icon, buttonClassName, type IconName } from '@mate/ui';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle } from '../../components/useDocumentTitle';

export interface NotAvailableScreenProps {
  title: string;
  description: string;
  icon: IconName;
  /** The screen's back target from the spec, when it has one. */
  back?: { to: string; label: string };
}

/** A screen of a later issue: a real page that says so, never a blank one. */
export function NotAvailableScreen({ title, description, icon, back }: NotAvailableScreenProps) {
  useDocumentTitle(title);
  return (
    <div className="screen screen--medium">
      <PageHeader title={title} subtitle={description} back={back} />
      <div className="mate-card mate-card--pad-lg">
        <EmptyState
          icon={<Icon name={icon} size={32} />}
          title="This screen is not available yet"
          description={`We're still building ${title}. It will appear here in an upcoming release.`}
          action={
            <Link to="/dashboard" className={buttonClassName({ variant: 'secondary' })}>
              Go to Dashboard
            </Link>
          }
        />
      </div>
    </div>
  );
}
