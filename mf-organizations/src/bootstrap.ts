// Stand-alone development page (rsbuild dev): renders the exposed screens without the shell.
import { mountApp } from '@rotunda/ui/mount';
import OrganizationList from './OrganizationList';
import OrganizationProfile from './OrganizationProfile';

mountApp({ '/organization/:id': OrganizationProfile, '*': OrganizationList });
