// Entry of the stand-alone development page; the async import lets Module Federation negotiate shared
// singletons (React, the session store) before any of them is evaluated.
import('./bootstrap');
