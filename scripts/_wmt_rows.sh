# Shared by scripts/scale.sh and scripts/cluster.sh (sourced, not run): large
# inputs made from the shared WMT rows with mteval's own SQL, no Python.
# Needs MTEVAL (the binary), SHARED (../shared) and WORK (a scratch folder).

# The 7,500 shared rows (5 pairs) in $WORK/seed.parquet, once.
wmt_seed() {
  SEED="$WORK/seed.parquet"
  [ -f "$SEED" ] && return
  local union="" p q
  for p in en-de de-en zh-en en-zh en-ja; do
    q="SELECT '$p' AS pair, system, CAST(seg_id AS BIGINT) AS seg_id, hyp, ref FROM '$SHARED/data/wmt/$p.parquet'"
    union="${union:+$union UNION ALL }$q"
  done
  "$MTEVAL" sql -c "$union" -o "$SEED" >/dev/null 2>&1
}

# wmt_rows FIRST LAST OUT [LIMIT]: repetitions FIRST..LAST of the seed rows
# to OUT (Parquet), at most LIMIT rows. Row k of a repetition r is seed row k
# perturbed by r: every third hypothesis gets a number appended, every fifth
# loses its first word, so repeated rows do not all score the same.
wmt_rows() {
  wmt_seed
  "$MTEVAL" sql -c "
    SELECT pair, system, seg_id, r.value AS rep,
      CASE WHEN (r.value + seg_id) % 5 = 0 THEN regexp_replace(hyp, '^\\S+\\s*', '')
           WHEN (r.value + seg_id) % 3 = 0 THEN concat(hyp, ' ', CAST(r.value AS VARCHAR))
           ELSE hyp END AS hyp,
      ref
    FROM '$SEED' CROSS JOIN generate_series($1, $2) AS r
    ${4:+LIMIT $4}" -o "$3" >/dev/null 2>&1
}
