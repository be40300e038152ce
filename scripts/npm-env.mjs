// Imported first by every script that runs npm in a project of its own (a packed tarball's fresh app, a runtime
// cache). `npm run` hands this project's `allowScripts` to its children as `npm_config_allow_scripts`, and npm
// refuses that setting in any other project (EALLOWSCRIPTS: "not allowed in project-scoped installs"), so
// `npm run smoke` failed where `node scripts/smoke-pack.mjs` (CI) passed. Each of those projects names its own.
delete process.env.npm_config_allow_scripts;
