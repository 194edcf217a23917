import type { Viewer } from '../viewer';
import { AdminListsDocument, StaffListDocument } from '../api/generated';
import { useApi } from '../api/use-api';
import { text } from '../text';
import { ErrorNotice, Loading } from '../ui';
import { Companies } from './admin-companies';
import { Projects } from './admin-projects';
import { Staff } from './admin-staff';

/** Companies, projects (limits, visibility, members, rates) and staff, for owners and managers. */
export function AdminPage({ viewer }: { viewer: Viewer }) {
  const forbidden = viewer.staff.type === 'STAFF';
  const lists = useApi(AdminListsDocument, {}, { skip: forbidden });
  const staff = useApi(StaffListDocument, {}, { skip: forbidden });
  if (forbidden) return <p>{text.admin.forbidden}</p>;
  const error = lists.error ?? staff.error;
  if (error) return <ErrorNotice error={error} />;
  if (!lists.data || !staff.data) return <Loading />;
  const reload = () => Promise.all([lists.reload(), staff.reload()]);
  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">{text.admin.title}</h1>
      <Companies companies={lists.data.companies.nodes} reload={reload} />
      <Projects
        viewer={viewer}
        companies={lists.data.companies.nodes}
        projects={lists.data.projects.nodes}
        people={staff.data.staff.nodes}
        reload={reload}
      />
      <Staff viewer={viewer} people={staff.data.staff.nodes} reload={reload} />
    </section>
  );
}
