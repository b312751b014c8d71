// Preloaded (`node -r`) by tests that a command did not load the YAML library: the yaml package is
// CommonJS, so every load of it, from ESM too, lands in require.cache. Says which on stderr at exit.
process.on('exit', () => {
  const loaded = Object.keys(require.cache).some((k) => k.includes('/node_modules/yaml/'));
  process.stderr.write(loaded ? 'yaml library: loaded\n' : 'yaml library: not loaded\n');
});
