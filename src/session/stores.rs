//! Object stores by URL (`s3://`, `gs://`, `az://`, `http(s)://`),
//! configured from the environment.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::error::DataFusionError;
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::http::HttpBuilder;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore, PutMultipartOptions,
    PutOptions, PutPayload, PutResult, RenameOptions,
};
use url::Url;

/// Whether `path` names an object-store URL rather than a local file.
#[must_use]
pub fn is_url(path: &str) -> bool {
    path.contains("://") && !path.starts_with("file://")
}

/// The object store serving `url` (`s3://bucket`, `gs://bucket`,
/// `az://container`, `http(s)://host`), configured from the usual
/// environment variables: `AWS_*` (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
/// `AWS_REGION`, `AWS_ENDPOINT`, `AWS_ALLOW_HTTP`, ...), `GOOGLE_*`
/// (`GOOGLE_SERVICE_ACCOUNT`, ...), `AZURE_*` (`AZURE_STORAGE_ACCOUNT_NAME`,
/// `AZURE_STORAGE_ACCOUNT_KEY`, ...).
///
/// # Errors
/// Unsupported schemes and incomplete configurations, naming the URL.
pub fn store_for_url(url: &Url) -> Result<Arc<dyn ObjectStore>> {
    let u = url.as_str();
    let store: Arc<dyn ObjectStore> = match url.scheme() {
        "s3" | "s3a" => Arc::new(AmazonS3Builder::from_env().with_url(u).build().with_context(|| hint(url, "AWS_"))?),
        "gs" | "gcs" => {
            Arc::new(GoogleCloudStorageBuilder::from_env().with_url(u).build().with_context(|| hint(url, "GOOGLE_"))?)
        }
        "az" | "adl" | "azure" | "abfs" | "abfss" => {
            Arc::new(MicrosoftAzureBuilder::from_env().with_url(u).build().with_context(|| hint(url, "AZURE_"))?)
        }
        "http" | "https" => {
            let origin = &url[..url::Position::BeforePath];
            // The URL asks for plain HTTP itself, so it is allowed.
            let client = object_store::ClientOptions::new().with_allow_http(url.scheme() == "http");
            Arc::new(
                HttpBuilder::new()
                    .with_url(origin)
                    .with_client_options(client)
                    .build()
                    .with_context(|| format!("cannot open {url}"))?,
            )
        }
        s => bail!("unsupported URL scheme '{s}' in {url} (use s3://, gs://, az://, http(s):// or a local path)"),
    };
    Ok(store)
}

fn hint(url: &Url, prefix: &str) -> String {
    format!("cannot open {url} (object-store settings come from the {prefix}* environment variables)")
}

/// `DataFusion`'s object-store registry, creating the store of a bucket from
/// the environment the first time a URL names it (so `FROM 's3://b/x.parquet'`
/// works in SQL without DDL).
#[derive(Debug, Default)]
pub(super) struct EnvObjectStores {
    known: DefaultObjectStoreRegistry,
}

impl ObjectStoreRegistry for EnvObjectStores {
    fn register_store(&self, url: &Url, store: Arc<dyn ObjectStore>) -> Option<Arc<dyn ObjectStore>> {
        self.known.register_store(url, store)
    }

    fn deregister_store(&self, url: &Url) -> datafusion::common::Result<Arc<dyn ObjectStore>> {
        self.known.deregister_store(url)
    }

    fn get_store(&self, url: &Url) -> datafusion::common::Result<Arc<dyn ObjectStore>> {
        if let Ok(s) = self.known.get_store(url) {
            return Ok(SkipHidden::wrap(s));
        }
        if url.scheme() == "file" {
            return self.known.get_store(url).map(SkipHidden::wrap);
        }
        let store = store_for_url(url).map_err(|e| DataFusionError::External(format!("{e:#}").into()))?;
        self.known.register_store(url, Arc::clone(&store));
        Ok(SkipHidden::wrap(store))
    }
}

/// Whether a file or folder name is hidden from listings, as Spark and Hive
/// hide it: a name starting with `.` (`.DS_Store`, the `.NAME.mteval-PID.tmp`
/// a killed `-o` leaves) or with `_` (`_SUCCESS`, `_temporary/`), except a
/// `_key=value` partition folder.
#[must_use]
pub fn is_hidden_name(name: &str) -> bool {
    name.starts_with('.') || (name.starts_with('_') && !name.contains('='))
}

/// A store's listing of objects.
type Listing = futures::stream::BoxStream<'static, object_store::Result<ObjectMeta>>;

/// Whether `location`, listed below `prefix`, lies in or is a hidden file
/// or folder ([`is_hidden_name`]); the folders of `prefix` itself are the
/// user's choice and never hide anything.
fn hidden_below(prefix: Option<&Path>, location: &Path) -> bool {
    let rest = match prefix {
        Some(p) if !p.as_ref().is_empty() => {
            location.as_ref().strip_prefix(p.as_ref()).map_or("", |r| r.trim_start_matches('/'))
        }
        _ => location.as_ref(),
    };
    rest.split('/').any(is_hidden_name)
}

/// An object store whose listings leave out hidden files and folders
/// ([`is_hidden_name`]), so that a dataset folder reads what Spark and
/// Hive would read; every other operation (a file named directly, writes)
/// goes to the store as it is.
#[derive(Debug)]
struct SkipHidden(Arc<dyn ObjectStore>);

/// The entries of `listed` (a listing below `prefix`) that are not hidden.
fn visible(prefix: Option<&Path>, listed: Listing) -> Listing {
    use futures::TryStreamExt;
    let owned = prefix.cloned();
    Box::pin(listed.try_filter(move |m| std::future::ready(!hidden_below(owned.as_ref(), &m.location))))
}

impl SkipHidden {
    fn wrap(store: Arc<dyn ObjectStore>) -> Arc<dyn ObjectStore> {
        Arc::new(Self(store))
    }
}

impl std::fmt::Display for SkipHidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

#[async_trait::async_trait]
impl ObjectStore for SkipHidden {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.0.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.0.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> object_store::Result<GetResult> {
        self.0.get_opts(location, options).await
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[std::ops::Range<u64>],
    ) -> object_store::Result<Vec<bytes::Bytes>> {
        self.0.get_ranges(location, ranges).await
    }

    fn delete_stream(
        &self,
        locations: futures::stream::BoxStream<'static, object_store::Result<Path>>,
    ) -> futures::stream::BoxStream<'static, object_store::Result<Path>> {
        self.0.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> Listing {
        visible(prefix, self.0.list(prefix))
    }

    fn list_with_offset(&self, prefix: Option<&Path>, offset: &Path) -> Listing {
        visible(prefix, self.0.list_with_offset(prefix, offset))
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        let mut listed = self.0.list_with_delimiter(prefix).await?;
        listed.objects.retain(|m| !hidden_below(prefix, &m.location));
        listed.common_prefixes.retain(|p| !hidden_below(prefix, p));
        Ok(listed)
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> object_store::Result<()> {
        self.0.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> object_store::Result<()> {
        self.0.rename_opts(from, to, options).await
    }
}
