// Stand-alone development page (rsbuild dev): renders the exposed screen without the shell.
import { mountApp } from '@rotunda/ui/mount';
import Directory from './Directory';

mountApp(Directory);
