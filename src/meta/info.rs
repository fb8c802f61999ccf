//! What mt-metrics-eval's `meta_info.DATA` records about the test sets its
//! WMT23, WMT24 and WMT25 task sets run on (commit 68a481a): per language
//! pair the standard reference, the standard gold scores, the outlier
//! systems, and the primary and baseline metrics (base names). These are
//! facts about the shared tasks, written out here as a table.

/// One language pair's meta-information.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LpInfo {
    /// The standard reference (`std_ref`).
    pub std_ref: &'static str,
    /// The standard gold scores, the same name at every level (`std_gold`);
    /// `None` where the test set has none for this pair.
    pub gold: Option<&'static str>,
    /// Systems left out unless outliers are used.
    pub outliers: &'static [&'static str],
    /// Primary metrics' base names.
    pub primaries: Names,
    /// Baseline metrics' base names.
    pub baselines: Names,
}

/// A list of names written as texts of names separated by whitespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names(&'static [&'static str]);

impl Names {
    /// The names, in the table's order.
    pub fn iter(self) -> impl Iterator<Item = &'static str> {
        self.0.iter().flat_map(|t| t.split_whitespace())
    }

    /// The names, as a list.
    #[must_use]
    pub fn to_vec(self) -> Vec<&'static str> {
        self.iter().collect()
    }
}

/// The WMT23 primaries that are not baselines.
const WMT23_SUBMISSIONS: &str = "\
    Calibri-COMET22 Calibri-COMET22-QE cometoid22-wmt22 eBLEU embed_llama GEMBA-MQM KG-BERTScore MaTESe MEE4 \
    MetricX-23 MetricX-23-QE mre-score-labse-regular mbr-metricx-qe sescoreX tokengram_F XCOMET-Ensemble \
    XCOMET-QE-Ensemble XLsim";
/// The WMT23 baselines (primaries too).
const WMT23_BASELINES: &str = "\
    BERTscore BLEU BLEURT-20 chrF COMET CometKiwi docWMT22CometDA docWMT22CometKiwiDA f200spBLEU MS-COMET-QE-22 \
    prismRef prismSrc Random-sysname YiSi-1";
/// The WMT24 primaries that are not baselines.
const WMT24_SUBMISSIONS: &str = "\
    BLCOM_1 bright-qe chrfS damonmonli gemba_esa MEE4 metametrics_mt_mqm_hybrid_kendall \
    metametrics_mt_mqm_qe_kendall.seg.s MetricX-24-Hybrid MetricX-24-Hybrid-QE XCOMET XCOMET-QE XLsimMqm";
/// The WMT24 baselines (primaries too).
const WMT24_BASELINES: &str = "\
    BERTScore BLEU BLEURT-20 chrF COMET-22 CometKiwi PrismRefMedium PrismRefSmall spBLEU YiSi-1 \
    sentinel-cand-mqm sentinel-ref-mqm sentinel-src-mqm";
/// The WMT25 primaries, as `meta_info` lists them (no baseline among them).
const WMT25_PRIMARIES: &str = "\
    EnsembleSlick GEMBA-v2 MetricX-25 Polycand-2 Q_Relative-MQM SEGALE-QE TASER-No-Ref UvA-MT comet-multi hw-tsc \
    mr7_2_1 rankedCOMET";
/// The WMT25 baselines.
const WMT25_BASELINES: &str = "\
    BERTScore BLEU COMET22 COMETKiwi22 YiSi-1 chrF sentinel-cand spBLEU";

const fn lp(
    std_ref: &'static str,
    gold: Option<&'static str>,
    outliers: &'static [&'static str],
    primaries: &'static [&'static str],
    baselines: &'static [&'static str],
) -> LpInfo {
    LpInfo { std_ref, gold, outliers, primaries: Names(primaries), baselines: Names(baselines) }
}

const W23_MQM: LpInfo = lp("refA", Some("mqm"), &[], &[WMT23_SUBMISSIONS, WMT23_BASELINES], &[WMT23_BASELINES]);
const W23_DA: LpInfo = lp("refA", Some("da-sqm"), &[], &[WMT23_SUBMISSIONS, WMT23_BASELINES], &[WMT23_BASELINES]);
const W24_MQM: LpInfo = lp("refA", Some("mqm"), &["MSLC"], &[WMT24_SUBMISSIONS, WMT24_BASELINES], &[WMT24_BASELINES]);
const W24_ESA: LpInfo = lp("refA", Some("esa"), &[], &[WMT24_SUBMISSIONS, WMT24_BASELINES], &[WMT24_BASELINES]);
const W25_MQM: LpInfo = lp("refA", Some("mqm"), &[], &[WMT25_PRIMARIES], &[WMT25_BASELINES]);
const W25_ESA: LpInfo = lp("refA", Some("esa-human1"), &[], &[WMT25_PRIMARIES], &[WMT25_BASELINES]);

/// The test sets this table knows, with their language pairs.
const DATA: &[(&str, &[(&str, LpInfo)])] = &[
    (
        "wmt23",
        &[
            ("en-de", LpInfo { outliers: &["synthetic_ref"], ..W23_MQM }),
            ("he-en", LpInfo { std_ref: "refB", ..W23_MQM }),
            ("zh-en", LpInfo { outliers: &["synthetic_ref"], ..W23_MQM }),
            ("cs-uk", W23_DA),
            ("de-en", W23_DA),
            ("en-cs", W23_DA),
            ("en-he", LpInfo { gold: None, std_ref: "refB", ..W23_DA }),
            ("en-ja", W23_DA),
            ("en-ru", LpInfo { gold: None, ..W23_DA }),
            ("en-uk", LpInfo { gold: None, ..W23_DA }),
            ("en-zh", W23_DA),
            ("ja-en", W23_DA),
            ("ru-en", LpInfo { gold: None, ..W23_DA }),
            ("uk-en", LpInfo { gold: None, ..W23_DA }),
        ],
    ),
    (
        "wmt24",
        &[
            ("en-de", LpInfo { std_ref: "refB", ..W24_MQM }),
            ("en-es", W24_MQM),
            ("ja-zh", W24_MQM),
            ("cs-uk", W24_ESA),
            ("en-cs", W24_ESA),
            ("en-hi", W24_ESA),
            ("en-is", W24_ESA),
            ("en-ja", W24_ESA),
            ("en-ru", W24_ESA),
            ("en-uk", W24_ESA),
            ("en-zh", W24_ESA),
        ],
    ),
    (
        "wmt25",
        &[
            ("ja-zh_CN", W25_MQM),
            ("en-ko_KR", W25_MQM),
            ("cs-de_DE", W25_ESA),
            ("cs-uk_UA", W25_ESA),
            ("en-ar_EG", W25_ESA),
            ("en-bho_IN", W25_ESA),
            ("en-zh_CN", W25_ESA),
            ("en-cs_CZ", W25_ESA),
            ("en-et_EE", W25_ESA),
            ("en-is_IS", W25_ESA),
            ("en-it_IT", W25_ESA),
            ("en-ja_JP", W25_ESA),
            ("en-mas_KE", W25_ESA),
            ("en-ru_RU", W25_ESA),
            ("en-sr_Cyrl_RS", W25_ESA),
            ("en-uk_UA", W25_ESA),
        ],
    ),
];

/// A language pair's meta-information, where the test set is known.
#[must_use]
pub fn lp_info(test_set: &str, lp: &str) -> Option<LpInfo> {
    DATA.iter().find(|(t, _)| *t == test_set)?.1.iter().find(|(l, _)| *l == lp).map(|(_, i)| *i)
}

/// Whether this table knows the test set.
#[must_use]
pub fn known_test_set(test_set: &str) -> bool {
    DATA.iter().any(|(t, _)| *t == test_set)
}

/// The language pairs a task set runs on by default (its function's `lps`
/// default).
#[must_use]
pub fn default_lps(test_set: &str) -> Vec<String> {
    let lps: &[&str] = match test_set {
        "wmt23" => &["en-de", "he-en", "zh-en"],
        "wmt24" => &["en-de", "en-es", "ja-zh"],
        "wmt25" => &[
            "cs-de_DE",
            "cs-uk_UA",
            "en-ar_EG",
            "en-bho_IN",
            "en-cs_CZ",
            "en-et_EE",
            "en-is_IS",
            "en-it_IT",
            "en-ja_JP",
            "en-ko_KR",
            "en-mas_KE",
            "en-ru_RU",
            "en-sr_Cyrl_RS",
            "en-uk_UA",
            "en-zh_CN",
            "ja-zh_CN",
        ],
        _ => &[],
    };
    lps.iter().map(|s| (*s).to_owned()).collect()
}

/// mt-metrics-eval's `DisplayName` (spreadsheet format) of a metric file
/// name `BASE-REFS`: `*` before a contrastive (non-primary) metric where the
/// primaries are known, `[noref]` after one that uses no reference.
#[must_use]
pub fn display_name(file_name: &str, primaries: Option<&[&str]>) -> String {
    let (base, refs) = file_name.rsplit_once('-').unwrap_or((file_name, ""));
    let mut name = String::new();
    if primaries.is_some_and(|p| !p.contains(&base)) {
        name.push('*');
    }
    name.push_str(base);
    if refs == "src" {
        name.push_str("[noref]");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_the_standard_references_and_gold() {
        assert_eq!(lp_info("wmt24", "en-de").unwrap().std_ref, "refB");
        assert_eq!(lp_info("wmt24", "en-de").unwrap().outliers, &["MSLC"]);
        assert_eq!(lp_info("wmt25", "cs-uk_UA").unwrap().gold, Some("esa-human1"));
        assert_eq!(lp_info("wmt23", "en-ru").unwrap().gold, None);
        assert!(lp_info("wmt23", "xx-yy").is_none());
        assert_eq!(default_lps("wmt25").len(), 16);
        // meta_info's primaries: the submissions, then every baseline.
        let w23 = lp_info("wmt23", "en-de").unwrap().primaries.to_vec();
        assert_eq!((w23.len(), w23[0], w23[18], w23[31]), (32, "Calibri-COMET22", "BERTscore", "YiSi-1"));
        let w24 = lp_info("wmt24", "en-de").unwrap();
        let p24 = w24.primaries.to_vec();
        assert_eq!((p24.len(), w24.baselines.iter().count()), (26, 13));
        assert!(w24.baselines.iter().all(|b| p24.contains(&b)) && p24.contains(&"BLCOM_1"));
        let w25 = lp_info("wmt25", "en-cs_CZ").unwrap();
        assert_eq!((w25.primaries.iter().count(), w25.baselines.to_vec()[7]), (12, "spBLEU"));
    }

    #[test]
    fn display_names() {
        let p: &[&str] = &["BLEU", "CometKiwi"];
        assert_eq!(display_name("BLEU-refA", Some(p)), "BLEU");
        assert_eq!(display_name("CometKiwi-src", Some(p)), "CometKiwi[noref]");
        assert_eq!(display_name("lendiff-refA", Some(p)), "*lendiff");
        assert_eq!(display_name("lendiff-refA", None), "lendiff");
    }
}
