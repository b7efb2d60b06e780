// Stylesheets are imported for their side effect: Vite bundles them into assets/style.css.
declare module '*.css';
