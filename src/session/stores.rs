//! Object stores by URL (`s3://`, `gs://`, `az://`, `http(s)://`),
//! configured from the environment.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use datafusion::error::DataFusionError;
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::http::HttpBuilder;
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
            return Ok(s);
        }
        if url.scheme() == "file" {
            return self.known.get_store(url);
        }
        let store = store_for_url(url).map_err(|e| DataFusionError::External(format!("{e:#}").into()))?;
        self.known.register_store(url, Arc::clone(&store));
        Ok(store)
    }
}
